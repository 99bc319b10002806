package org.tessera.cli;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code tessera} command. The {@code ./tessera} launcher runs it after finding a JDK 25 and
 * building the project; {@code test}, {@code mvn} and {@code jmh} are the launcher's own and never
 * reach this class.
 *
 * <p>Exit status: 0 on success, 1 when the work failed, 2 for a usage error (a bad option or
 * argument), which is reported as one line followed by the command's usage.
 */
@Command(name = "tessera",
        subcommands = {DemoCommand.class, InfoCommand.class, BenchCommand.class, ShellCommand.class},
        description = "Lazy, blocked, out-of-core N-dimensional arrays for the JVM.",
        footer = {"", "The ./tessera launcher also runs: test (the whole test suite), javadoc (the API documentation), "
                + "fuzz [SECONDS] (Jazzer on every parser of outside bytes, SECONDS per target), "
                + "mvn ARGS (Maven with the JDK 25 it found) and jmh [OPTIONS] (the JMH benchmarks).",
                "", "Run 'tessera COMMAND --help' for the options of a command."})
public final class Main implements Runnable {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    public static void main(String[] arguments) {
        System.exit(commandLine().execute(arguments));
    }

    /** The command line with Tessera's error handling; tests call it with their own output streams. */
    static CommandLine commandLine() {
        return commandLine(CommandLine.defaultFactory());
    }

    /** The same with the commands made by {@code factory} (tests give the bench command their own launcher). */
    static CommandLine commandLine(CommandLine.IFactory factory) {
        CommandLine commandLine = new CommandLine(new Main(), factory);
        commandLine.setExecutionExceptionHandler((failure, failedCommand, parsed) -> {
            PrintWriter err = failedCommand.getErr();
            err.println(failedCommand.getCommandSpec().qualifiedName() + ": " + message(failure));
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        });
        return commandLine;
    }

    /** One line for a failure: its message, or its class where it has none, and its cause's message where that says more. */
    static String message(Throwable failure) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        Throwable cause = failure.getCause();
        if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
            message += " (" + cause.getMessage() + ")";
        }
        return message.replace('\n', ' ');
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a command is needed: demo, info, bench or shell");
    }
}
