package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The README's Java tour, run as {@code ./tessera shell} runs it: every {@code ```java} block of the
 * project's README.md, in order, in one JShell with the shell's startup imports, fed line by line
 * so that a statement runs as soon as it is complete (as JShell does when the tour is pasted).
 * A snippet that does not compile or throws fails the test, and a line ending in
 * {@code // prints TEXT} must print exactly TEXT.
 */
class ReadmeSnippetsTest {
    /** JShell's own DEFAULT startup, which {@code ./tessera shell} keeps before Tessera's imports. */
    private static final String JSHELL_DEFAULT_IMPORTS = """
            import java.io.*;
            import java.math.*;
            import java.net.*;
            import java.nio.file.*;
            import java.util.*;
            import java.util.concurrent.*;
            import java.util.function.*;
            import java.util.prefs.*;
            import java.util.regex.*;
            import java.util.stream.*;
            """;
    private static final Pattern JAVA_BLOCK = Pattern.compile("^```java\\n(.*?)^```", Pattern.MULTILINE | Pattern.DOTALL);
    private static final Pattern PRINTS = Pattern.compile("//\\s*prints\\s+(.*)$");

    /** A {@code ```java} block: its text and the README line it starts on, for messages. */
    record JavaBlock(int line, String source) {
    }

    static List<JavaBlock> javaBlocks(String markdown) {
        List<JavaBlock> blocks = new ArrayList<>();
        Matcher matcher = JAVA_BLOCK.matcher(markdown);
        while (matcher.find()) {
            int line = (int) markdown.substring(0, matcher.start()).lines().count() + 2;
            blocks.add(new JavaBlock(line, matcher.group(1)));
        }
        return blocks;
    }

    @Test
    void javaBlocksAreFoundWithTheirLines() {
        String markdown = "# t\n\n```java\nint a = 1;\n```\ntext\n```bash\nls\n```\n```java\nint b = 2;\nint c = 3;\n```\n";
        assertEquals(List.of(new JavaBlock(4, "int a = 1;\n"), new JavaBlock(11, "int b = 2;\nint c = 3;\n")), javaBlocks(markdown));
    }

    @Test
    void everyJavaBlockOfTheReadmeRunsInTheShellAndPrintsWhatItSays(@org.junit.jupiter.api.io.TempDir Path buckets) throws Exception {
        List<JavaBlock> blocks = javaBlocks(Files.readString(readme()));
        assertTrue(blocks.size() >= 6, "the tour has a block per section, found " + blocks.size());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        // The tour's object-storage block writes to and reads from s3://bucket, configured as a user would.
        try (S3ServerLoader s3 = S3ServerLoader.start(buckets);
             JShell shell = tesseraShell(printed, s3Options(s3))) {
            int checked = 0;
            for (JavaBlock block : blocks) {
                checked += run(shell, block, printed);
            }
            assertTrue(checked >= 8, "the tour shows what its statements print, but only " + checked + " '// prints' lines were checked");
        }
    }

    @Test
    void aStatementThatPrintsSomethingElseOrThrowsFailsTheTour() throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (JShell shell = tesseraShell(printed)) {
            AssertionFailedError wrong = assertThrows(AssertionFailedError.class,
                    () -> run(shell, new JavaBlock(7, "System.out.println(NDArrays.arange(2)); // prints array([0, 2])\n"), printed));
            assertEquals("what README line 7 prints ==> expected: <array([0, 2])> but was: <array([0, 1])>", wrong.getMessage());
            AssertionFailedError thrown = assertThrows(AssertionFailedError.class,
                    () -> run(shell, new JavaBlock(9, "NDArrays.arange(2).reshape(3);\n"), printed));
            assertTrue(thrown.getMessage().startsWith("README line 9 throws "), thrown.getMessage());
            AssertionFailedError unfinished = assertThrows(AssertionFailedError.class,
                    () -> run(shell, new JavaBlock(11, "int x = Math.max(1,\n"), printed));
            assertTrue(unfinished.getMessage().startsWith("README block at line 11 ends inside a statement"), unfinished.getMessage());
        }
    }

    /** The system properties that point the shell's JVM at {@code s3}, with a bucket "bucket" made there. */
    private static List<String> s3Options(S3ServerLoader s3) throws Exception {
        s3.createBucket("bucket");
        return List.of("-Daws.endpointUrl=" + s3.endpoint(), "-Daws.accessKeyId=tessera-test", "-Daws.secretAccessKey=tessera-test-secret");
    }

    /** A JShell as {@code ./tessera shell} starts it: the project on the class path and the startup imports evaluated. */
    private static JShell tesseraShell(ByteArrayOutputStream printed) throws IOException {
        return tesseraShell(printed, List.of());
    }

    private static JShell tesseraShell(ByteArrayOutputStream printed, List<String> extraOptions) throws IOException {
        PrintStream output = new PrintStream(printed, true, StandardCharsets.UTF_8);
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> options = new ArrayList<>(ShellCommand.snippetJvmOptions());
        options.addAll(extraOptions);
        JShell shell = JShell.builder().out(output).err(output)
                .remoteVMOptions(options.toArray(String[]::new)).build();
        shell.addToClasspath(classPath);
        run(shell, new JavaBlock(0, JSHELL_DEFAULT_IMPORTS + ShellCommand.startupScript()), printed);
        return shell;
    }

    /** Runs a block line by line as JShell reads typed input; returns how many printed outputs it checked. */
    private static int run(JShell shell, JavaBlock block, ByteArrayOutputStream printed) {
        SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
        StringBuilder pending = new StringBuilder();
        String expected = null;
        int checked = 0;
        List<String> lines = block.source().lines().toList();
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index);
            pending.append(line).append('\n');
            Matcher prints = PRINTS.matcher(line);
            if (prints.find()) {
                expected = prints.group(1).strip();
            }
            SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(pending.toString());
            while (info.completeness().isComplete()) {
                printed.reset();
                evaluate(shell, info.source(), "README line " + (block.line() + index));
                if (expected != null) {
                    assertEquals(expected, printed.toString(StandardCharsets.UTF_8).strip(), "what README line " + (block.line() + index) + " prints");
                    expected = null;
                    checked++;
                }
                pending = new StringBuilder(info.remaining());
                info = analysis.analyzeCompletion(pending.toString());
            }
            if (info.completeness() == SourceCodeAnalysis.Completeness.EMPTY) {
                pending = new StringBuilder();
            }
        }
        assertTrue(pending.toString().isBlank(), "README block at line " + block.line() + " ends inside a statement: " + pending);
        assertFalse(expected != null, "README block at line " + block.line() + " expects '" + expected + "' from a statement that never completed");
        return checked;
    }

    private static void evaluate(JShell shell, String source, String where) {
        for (SnippetEvent event : shell.eval(source)) {
            if (event.causeSnippet() != null) {
                continue;
            }
            if (event.status() == Snippet.Status.REJECTED) {
                String diagnostics = shell.diagnostics(event.snippet()).map(diag -> diag.getMessage(null)).collect(Collectors.joining("; "));
                fail(where + " does not compile: " + source.strip() + "\n  " + diagnostics);
            }
            if (event.exception() != null) {
                String thrown = event.exception() instanceof EvalException evaluation ? evaluation.getExceptionClassName() : event.exception().getClass().getName();
                fail(where + " throws " + thrown + ": " + event.exception().getMessage() + "\n  in " + source.strip());
            }
        }
    }

    /** The project's README.md: the module's parent directory holds it beside the launcher. */
    static Path readme() {
        Path directory = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
        for (Path candidate = directory; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("README.md")) && Files.isRegularFile(candidate.resolve("tessera"))) {
                return candidate.resolve("README.md");
            }
        }
        throw new IllegalStateException("no README.md beside a tessera launcher above " + directory);
    }
}
