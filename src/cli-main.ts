// Process entry: runs the CLI and exits with its code.
import { main } from './cli.js';

const code = await main(process.argv.slice(2));
process.exit(code);
