// Counted words ("1 test", "2 tests") for the verdict's reasons and the command line's messages.
/** "1 deviation", "2 deviations". */
export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
