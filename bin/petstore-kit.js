#!/usr/bin/env node
import { runKit } from '../dist/kit-cli.js';

await runKit(process.argv.slice(2));
