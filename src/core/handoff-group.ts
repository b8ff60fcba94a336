// The shape that names a hand-off's process group across a restart: what the device room
// describes when the command starts, the store keeps with the message, and the next start
// uses to end what is left of it (src/device/kill-leftover.ts).
export interface ProcessGroup {
  pgid: number;
  /** /proc/sys/kernel/random/boot_id, or null where it cannot be read. */
  boot: string | null;
  /** The leader's start time (clock ticks since boot, /proc/<pid>/stat field 22), or null. */
  startTicks: number | null;
}
