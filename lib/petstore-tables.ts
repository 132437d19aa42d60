import { AttributeType, BillingMode, ProjectionType, Table, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { StageConfig } from './stage-config';
import { constructIdOf } from './construct-ids';
import { TABLE_KEYS, TABLES, type KeyAttribute, type TableDefinition, type TableKey } from '#shared/tables';

const toAttribute = ({ name, type }: KeyAttribute): Attribute => ({
  name,
  type: type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/** The tables of shared/tables.ts, named by CloudFormation so several stages can share an account. */
export class PetStoreTables extends Construct {
  readonly tables: Readonly<Record<TableKey, Table>>;

  constructor(scope: Construct, id: string, props: { readonly config: StageConfig }) {
    super(scope, id);
    const { config } = props;
    const build = (key: TableKey): Table => {
      const definition: TableDefinition = TABLES[key];
      // On demand, a table takes at once only what it has served before (at least 4,000 writes/s); a lagging index
      // throttles the table's writes, so it is warmed alike.
      const warm = config.warmThroughput[key];
      const warmThroughput = warm ? { warmThroughput: { ...warm } } : {};
      const table = new Table(this, constructIdOf(key), {
        partitionKey: toAttribute(definition.partitionKey),
        ...(definition.sortKey ? { sortKey: toAttribute(definition.sortKey) } : {}),
        billingMode: BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: config.deletionProtection,
        removalPolicy: config.removalPolicy,
        ...(definition.timeToLiveAttribute ? { timeToLiveAttribute: definition.timeToLiveAttribute } : {}),
        ...warmThroughput,
      });
      for (const index of definition.globalSecondaryIndexes ?? []) {
        table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: toAttribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: toAttribute(index.sortKey) } : {}),
          projectionType: ProjectionType.ALL,
          ...warmThroughput,
        });
      }
      return table;
    };
    this.tables = Object.fromEntries(TABLE_KEYS.map((key) => [key, build(key)])) as Record<TableKey, Table>;
  }
}
