import { useTestApi, expectError } from '../support/test-api';

const api = useTestApi();
let pet: { id: number; name: string; categoryId: number; status: string };
beforeAll(async () => {
  pet = (await api.call('POST', '/v1/pets', { json: { name: 'Fido', categoryId: 2, status: 'sold' } })).json as typeof pet;
});

const DEPRECATION = '@1767225600';
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

describe('GET /v1/pets/{petId} (deprecated)', () => {
  test('answers 200 with the pet and the Deprecation and Sunset headers', async () => {
    const answer = await api.call('GET', `/v1/pets/${pet.id}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json).toEqual(pet);
    expect(answer.headers.get('deprecation')).toBe(DEPRECATION);
    expect(answer.headers.get('sunset')).toBe(SUNSET);
  });

  test('an unknown id answers 404 not_found, still announcing the deprecation', async () => {
    const answer = await api.call('GET', `/v1/pets/${pet.id + 1}`);
    expectError(answer, 404, 'not_found');
    expect(answer.headers.get('sunset')).toBe(SUNSET);
  });

  test('the largest id of the id space, naming no pet, answers 404', async () => {
    expectError(await api.call('GET', `/v1/pets/${Number.MAX_SAFE_INTEGER}`), 404, 'not_found');
  });

  test.each(['0', '-5', '9007199254740992', '9223372036854775807', '12345678901234567890', '12345678901234567890123'])(
    'an integer %s outside the id space 1..2^53-1 answers 400 naming the bounds',
    async (id) => {
      const answer = await api.call('GET', `/v1/pets/${id}`);
      expectError(answer, 400, 'invalid_request');
      expect((answer.json as { message: string }).message).toBe("path parameter 'petId' must be an integer from 1 to 9007199254740991");
    },
  );

  test.each(['abc', '1.5', '1e3', '0x10', '007', '+5', '%20'])(
    'a petId %p that is not a decimal integer answers 400 naming petId',
    async (id) => {
      const answer = await api.call('GET', `/v1/pets/${id}`);
      expectError(answer, 400, 'invalid_request');
      expect((answer.json as { message: string }).message).toMatch(/path parameter 'petId' must be an integer from 1 to/);
    },
  );

  test('query parameters are not accepted', async () => {
    const answer = await api.call('GET', `/v1/pets/${pet.id}?expand=1`);
    expectError(answer, 400, 'invalid_request');
  });
});
