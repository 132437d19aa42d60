import { AttributeType, BillingMode, ProjectionType, Table, type Attribute } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { StageConfig } from './stage-config';
import { constructIdOf } from './construct-ids';
import { TABLE_KEYS, TABLES, type KeyAttribute, type TableDefinition, type TableKey } from '#shared/tables';

export type PetStoreTableSet = Readonly<Record<TableKey, Table>>;

const toAttribute = ({ name, type }: KeyAttribute): Attribute => ({
  name,
  type: type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/**
 * The tables of shared/tables.ts, the same definitions the local bootstrap creates. Physical names are
 * left to CloudFormation so several stages can share an account; functions and the keys CLI learn
 * them from environment variables and stack outputs.
 */
export class PetStoreTables extends Construct {
  readonly tables: PetStoreTableSet;

  constructor(scope: Construct, id: string, props: { readonly config: StageConfig }) {
    super(scope, id);
    const { config } = props;
    const build = (key: TableKey): Table => {
      const definition: TableDefinition = TABLES[key];
      // A launch peak served from its first second: on demand, a table otherwise takes at once only what it has
      // served before (at least 4,000 writes and 12,000 reads per second), then doubles within about 30 minutes.
      // An index has partitions of its own and throttles the table's writes when it lags, so it is warmed alike.
      const warm = config.warmThroughput[key];
      const warmThroughput = warm ? { warmThroughput: { ...warm } } : {};
      const table = new Table(this, constructIdOf(key), {
        partitionKey: toAttribute(definition.partitionKey),
        ...(definition.sortKey ? { sortKey: toAttribute(definition.sortKey) } : {}),
        // Traffic is spiky and small: pay per request, no capacity to plan or autoscale.
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
