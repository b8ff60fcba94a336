// What the gateway is right now: its mode and switches, as /health and host info show them.
import type { Simulation } from './config.js';

export type Mode = 'real' | 'simulated';

export interface RuntimeInfo {
  version: string;
  mode: Mode;
  /** "none" in real mode; the simulated outcome otherwise. */
  simulation: Simulation | 'none';
  smsEnabled: boolean;
  /** Wall-clock ms when the gateway started. */
  startedAt: number;
}
