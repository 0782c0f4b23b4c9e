/**
 * Rows as an aligned plain-text table.
 *
 * @example
 * ```ts
 * formatTable([{ name: 'serve', description: 'Run the server' }])
 * ```
 */
export function formatTable(rows: Array<Record<string, unknown>>): string {
  if (rows.length === 0) return ''
  const columns = Object.keys(rows[0]!)
  const cells = rows.map((row) => columns.map((c) => String(row[c] ?? '')))
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)))
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n')
}
