// One line per phase of a start on stdout (configuration and port, database and migrations, docs, listening), each with
// the seconds since the process began, so a slow start says where it is. Cluster workers stay quiet: the primary
// prints for them, and each worker logs its own start as a JSON line.
export interface StartupProgress {
  step(text: string): void;
}

export function startupProgress(options: { quiet: boolean }): StartupProgress {
  return {
    step(text) {
      if (options.quiet) return;
      // performance.now() counts from the process's start: node's own start-up and module loading included.
      process.stdout.write(`coinplane: ${text} (${(performance.now() / 1000).toFixed(1)} s)\n`);
    },
  };
}
