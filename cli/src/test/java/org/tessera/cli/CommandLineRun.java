package org.tessera.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** One run of the {@code tessera} command line in this JVM: its exit status and what it printed. */
record CommandLineRun(int status, String out, String err) {

    static CommandLineRun of(String... arguments) {
        return with(CommandLine.defaultFactory(), arguments);
    }

    static CommandLineRun with(CommandLine.IFactory factory, String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine(factory);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int status = commandLine.execute(arguments);
        return new CommandLineRun(status, out.toString(), err.toString());
    }

    /** The first line written to standard error: where a usage error says what is wrong. */
    String firstErrorLine() {
        return err.lines().findFirst().orElse("");
    }
}
