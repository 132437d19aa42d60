/**
 * The part of CloudWatch metric math the stack's alarms use, evaluated the way AWS documents it, so a test can feed an
 * alarm of the synthesized template recorded datapoints and read its state: arithmetic (+ - * /), comparisons
 * (> >= < <= == !=, 1 or 0), AND / OR, IF(condition, then, else) and FILL(series, value).
 *
 * Series are aligned on the alarm's periods. A datapoint is missing where its metric published nothing (a count of 0
 * from Lambda or an EMF line is no datapoint at all). Operations on a missing datapoint give a missing one, as does a
 * division by zero; IF takes the branch its condition picks at each datapoint. FILL fills only the periods in which some
 * metric of the alarm has a datapoint: with no datapoint at all there is nothing to fill, and the alarm's
 * treatMissingData decides.
 */
export type Series = readonly (number | undefined)[];

export interface MetricQuery {
  readonly Id: string;
  readonly Expression?: string;
  readonly ReturnData?: boolean;
  readonly MetricStat?: {
    readonly Metric: {
      readonly Namespace: string;
      readonly MetricName: string;
      readonly Dimensions?: readonly { Name: string; Value: unknown }[];
    };
  };
}

export interface AlarmProperties {
  readonly Metrics: readonly MetricQuery[];
  readonly Threshold: number;
  readonly ComparisonOperator: string;
  readonly EvaluationPeriods: number;
  readonly DatapointsToAlarm?: number;
  readonly TreatMissingData?: string;
}

type Token = { kind: 'number'; value: number } | { kind: 'name'; value: string } | { kind: 'op'; value: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(>=|<=|==|!=|&&|\|\||[-+*/(),<>]))/y;
  for (let at = 0; at < text.trim().length;) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) throw new Error(`cannot read ${JSON.stringify(text.slice(at))}`);
    const [, number, name, op] = match;
    tokens.push(
      number ? { kind: 'number', value: Number(number) } : name ? { kind: 'name', value: name } : { kind: 'op', value: op ?? '' },
    );
    at = pattern.lastIndex;
  }
  return tokens;
}

const BINARY: Record<string, (a: number, b: number) => number | undefined> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => (b === 0 ? undefined : a / b),
  '>': (a, b) => Number(a > b),
  '>=': (a, b) => Number(a >= b),
  '<': (a, b) => Number(a < b),
  '<=': (a, b) => Number(a <= b),
  '==': (a, b) => Number(a === b),
  '!=': (a, b) => Number(a !== b),
  AND: (a, b) => Number(a !== 0 && b !== 0),
  OR: (a, b) => Number(a !== 0 || b !== 0),
};
/** Lowest first; AND and OR in either spelling. */
const LEVELS = [
  ['OR', '||'],
  ['AND', '&&'],
  ['>', '>=', '<', '<=', '==', '!='],
  ['+', '-'],
  ['*', '/'],
];
const SPELLING: Record<string, string> = { '||': 'OR', '&&': 'AND' };

/** Evaluates one expression over `length` periods; `resolve` gives the series of an id, `present` the periods with any data. */
export function evaluate(expression: string, resolve: (id: string) => Series, present: readonly boolean[]): Series {
  const tokens = tokenize(expression);
  let position = 0;
  const peek = () => tokens[position];
  const take = (op?: string): Token => {
    const token = tokens[position++];
    if (!token || (op !== undefined && token.value !== op)) throw new Error(`expected ${op ?? 'more'} in ${expression}`);
    return token;
  };
  const map = (parts: Series[], apply: (...values: number[]) => number | undefined): Series =>
    present.map((_, at) => {
      const values = parts.map((part) => part[at]).filter((value) => value !== undefined);
      return values.length === parts.length ? apply(...values) : undefined;
    });
  const constant = (value: number): Series => present.map(() => value);

  const level = (depth: number): Series => {
    if (depth === LEVELS.length) return unary();
    let left = level(depth + 1);
    for (let token = peek(); token?.kind === 'op' || token?.kind === 'name'; token = peek()) {
      const op = SPELLING[token.value] ?? token.value;
      if (!LEVELS[depth]?.includes(token.value)) break;
      position++;
      const right = level(depth + 1);
      const apply = BINARY[op] as (a: number, b: number) => number | undefined;
      left = map([left, right], apply);
    }
    return left;
  };
  const unary = (): Series => {
    const token = take();
    if (token.kind === 'number') return constant(token.value);
    if (token.kind === 'op' && token.value === '-') return map([unary()], (value) => -value);
    if (token.kind === 'op' && token.value === '(') {
      const inner = level(0);
      take(')');
      return inner;
    }
    if (token.kind === 'name' && peek()?.value === '(') {
      take('(');
      const args = [level(0)];
      while (peek()?.value === ',') {
        take(',');
        args.push(level(0));
      }
      take(')');
      return call(token.value, args);
    }
    if (token.kind === 'name') return resolve(token.value);
    throw new Error(`unexpected ${token.value} in ${expression}`);
  };
  const call = (name: string, args: Series[]): Series => {
    const [first = [], second = [], third = []] = args;
    if (name === 'IF' && args.length === 3)
      return present.map((_, at) => (first[at] === undefined ? undefined : first[at] !== 0 ? second[at] : third[at]));
    if (name === 'FILL' && args.length === 2) return present.map((any, at) => first[at] ?? (any ? second[at] : undefined));
    throw new Error(`${name} with ${args.length} arguments is not modelled`);
  };

  const result = level(0);
  if (position !== tokens.length) throw new Error(`unread ${JSON.stringify(tokens.slice(position))} in ${expression}`);
  return result;
}

/** The series an alarm watches: its ReturnData expression, over the metrics `datapoints` gives. */
export function watchedSeries(metrics: readonly MetricQuery[], datapoints: (query: MetricQuery) => Series): Series {
  const byId = new Map(metrics.map((query) => [query.Id, query]));
  const fetched = new Map(metrics.filter((query) => query.MetricStat).map((query) => [query.Id, datapoints(query)]));
  const length = Math.max(0, ...[...fetched.values()].map((series) => series.length));
  const present = Array.from({ length }, (_, at) => [...fetched.values()].some((series) => series[at] !== undefined));
  const cache = new Map<string, Series>();
  const resolve = (id: string): Series => {
    const known = fetched.get(id) ?? cache.get(id);
    if (known) return present.map((_, at) => known[at]);
    const query = byId.get(id);
    if (!query?.Expression) throw new Error(`no metric or expression ${id}`);
    const series = evaluate(query.Expression, resolve, present);
    cache.set(id, series);
    return series;
  };
  const watched = metrics.filter((query) => query.Expression && query.ReturnData !== false);
  if (watched.length !== 1) throw new Error(`an alarm watches exactly one expression, not ${watched.length}`);
  return resolve((watched[0] as MetricQuery).Id);
}

const COMPARE: Record<string, (value: number, threshold: number) => boolean> = {
  GreaterThanOrEqualToThreshold: (value, threshold) => value >= threshold,
  GreaterThanThreshold: (value, threshold) => value > threshold,
  LessThanThreshold: (value, threshold) => value < threshold,
  LessThanOrEqualToThreshold: (value, threshold) => value <= threshold,
};

/**
 * The alarm's state after its last period: ALARM when at least DatapointsToAlarm of the last EvaluationPeriods breach,
 * missing datapoints counting as treatMissingData says (`missing`, `ignore`: left out; none left: INSUFFICIENT_DATA).
 */
export function alarmState(alarm: AlarmProperties, series: Series): 'ALARM' | 'OK' | 'INSUFFICIENT_DATA' {
  const compare = COMPARE[alarm.ComparisonOperator];
  if (!compare) throw new Error(`${alarm.ComparisonOperator} is not modelled`);
  const window = series.slice(-alarm.EvaluationPeriods);
  const padded = [...Array<undefined>(alarm.EvaluationPeriods - window.length).fill(undefined), ...window];
  const treat = alarm.TreatMissingData ?? 'missing';
  const judged = padded.flatMap((value) =>
    value !== undefined ? [compare(value, alarm.Threshold)] : treat === 'breaching' ? [true] : treat === 'notBreaching' ? [false] : [],
  );
  if (judged.length === 0) return 'INSUFFICIENT_DATA';
  return judged.filter(Boolean).length >= (alarm.DatapointsToAlarm ?? alarm.EvaluationPeriods) ? 'ALARM' : 'OK';
}
