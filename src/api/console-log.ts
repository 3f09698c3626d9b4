/** A flow's failure the spec says is only logged (the machines' `log` effect): to the console, under the flow's name when given. */
export function consoleLog(scope?: string) {
  return (_: unknown, params: { message: string; detail?: unknown }) => console.warn(scope ? `[${scope}] ${params.message}` : params.message, params.detail ?? '');
}
