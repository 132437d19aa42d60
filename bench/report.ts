/** A result table as Markdown: readable in a terminal and pasted as is into bench/results.md. */
export interface Table {
  readonly title: string;
  readonly note?: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export function renderTable(table: Table): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [
    `### ${table.title}`,
    ...(table.note ? ['', table.note] : []),
    '',
    line(table.columns),
    line(table.columns.map(() => '---')),
    ...table.rows.map(line),
    '',
  ].join('\n');
}

/** A budget check: printed with the tables, and the bench fails (outside --smoke) when one is missed. */
export interface BudgetCheck {
  readonly name: string;
  readonly limit: string;
  readonly measured: string;
  readonly passed: boolean;
}

export const budgetTable = (checks: readonly BudgetCheck[]): Table => ({
  title: 'Budgets',
  columns: ['budget', 'limit', 'measured', 'result'],
  rows: checks.map((check) => [check.name, check.limit, check.measured, check.passed ? 'pass' : '**MISSED**']),
});
