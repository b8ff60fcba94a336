// What the gateway is: its fixed port, and right now its mode and switches, as /health and
// host info show them. The mode and simulation enums are defined here, once: the
// configuration, the senders and the HTTP schemas take them from this file.

/**
 * The gateway's port, not configurable: the start screen, the CLI, doctor and the LAN URLs
 * all assume it; and the loopback URL the CLI talks to.
 */
export const PORT = 8080;
export const LOOPBACK_URL = `http://127.0.0.1:${PORT}`;

export const MODES = ['real', 'simulated'] as const;
export type Mode = (typeof MODES)[number];

/** SIM slots a simulated gateway offers when no phone tells (slots 1 and 2: dual-SIM clients can be tried). */
export const SIMULATED_SIM_COUNT = 2;

/** SMS_GATEWAY_SIMULATION: what the simulated sender answers. */
export const SIMULATIONS = ['success', 'failure', 'random'] as const;
export type Simulation = (typeof SIMULATIONS)[number];

/** As /health shows it: "none" in real mode, the simulated outcome otherwise. */
export const RUNTIME_SIMULATIONS = ['none', ...SIMULATIONS] as const;

export interface RuntimeInfo {
  version: string;
  mode: Mode;
  /** "none" in real mode; the simulated outcome otherwise. */
  simulation: (typeof RUNTIME_SIMULATIONS)[number];
  smsEnabled: boolean;
  /** Wall-clock ms when the gateway started. */
  startedAt: number;
}
