// Whether a process id is alive: used to recognise leftovers (locks, temp files, browser
// profiles) of a process that died without cleaning up.

export function isProcessRunning(processId: number): boolean {
  try {
    process.kill(processId, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
