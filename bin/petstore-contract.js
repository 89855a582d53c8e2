#!/usr/bin/env node
import '../dist/contract/cli.js';
