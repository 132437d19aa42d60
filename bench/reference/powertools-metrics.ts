/** Reference row (`npm run bench`, cold start): Powertools Metrics publishing a request's metrics, where lambda/runtime/metrics.ts does. */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

const metrics = new Metrics({ namespace: 'PetStore', serviceName: 'petstore' });
metrics.addDimension('Operation', 'getPet');
metrics.addMetric('Requests', MetricUnit.Count, 1);
metrics.publishStoredMetrics();
