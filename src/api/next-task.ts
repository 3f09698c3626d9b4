/** A new task: what came before is painted and input is handled before what comes next. */
export const nextTask = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));
