package org.tessera.cli;

import java.io.PrintStream;
import java.util.Arrays;

/** The {@code tessera} command: dispatches to a subcommand. */
public final class Main {
    private Main() {}

    private static final String USAGE = """
            usage: tessera <command> [options]

            commands:
              demo     a short tour of the NDArray core: an array, a view, a broadcast, a reduction
              test     run the whole test suite (handled by the ./tessera launcher)
              mvn      run Maven with the JDK 25 the launcher found (handled by the launcher)

            Run 'tessera <command> --help' for the options of a command.""";

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command line and returns the exit status (2 for a usage error). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            (args.length == 0 ? err : out).println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "demo" -> Demo.run(rest, out, err);
            default -> {
                err.println("tessera: unknown command '" + args[0] + "'");
                err.println(USAGE);
                yield 2;
            }
        };
    }
}
