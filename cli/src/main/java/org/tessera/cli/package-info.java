/**
 * The {@code tessera} command: {@code demo}, {@code info}, {@code bench} and {@code shell}, parsed
 * by picocli.
 *
 * <p>Each subcommand is a small picocli class that reads its options and prints; the work lives in
 * classes that know nothing of the command line ({@link org.tessera.cli.OutOfCoreDemo} runs the
 * demo's computation, {@link org.tessera.cli.ArrayInspector} reads a store's metadata,
 * {@link org.tessera.cli.WorkloadLauncher} starts a workload's JVM), so tests call them directly.
 *
 * <p>Errors: a bad option or argument, found by picocli or by a command (a path that holds no
 * array, an unknown workload), is a {@code ParameterException}: one line, the command's usage, exit
 * status 2. Anything thrown while working is one line and exit status 1 ({@code Main}'s execution
 * exception handler), since a stack trace tells a user of the command nothing they can act on.
 *
 * <p>{@code bench} runs each workload in a JVM of its own rather than in this one: WORKLOADS.md
 * compares peak resident memory per workload, and each kind of workload needs its own heap
 * settings, which are part of the published figures.
 *
 * <p>{@code shell} starts the {@code jshell} of the running JDK with the startup script
 * {@code shell-startup.jsh}; the README's tour is tested against the same script, so what the
 * README shows is what the shell accepts.
 */
package org.tessera.cli;
