/** The defaults of `pets` and `seed` (`--pets`, `--seed`): a generated scenario without its own count or seed. */
export const defaultPetCount = 50;
export const defaultSeed = 1;
