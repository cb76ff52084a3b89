/** How many simulated seconds the simulator may run per real second: an hour a second. */
export const MAX_SPEED = 3600;
