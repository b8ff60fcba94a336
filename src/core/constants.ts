// Fixed facts of the gateway that several rooms need: its port (not configurable: the
// start screen, the CLI, doctor and the LAN URLs all assume it) and the loopback URL the
// CLI talks to.
export const PORT = 8080;
export const LOOPBACK_URL = `http://127.0.0.1:${PORT}`;
