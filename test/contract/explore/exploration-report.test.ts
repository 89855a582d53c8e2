import { describe, expect, it } from 'vitest';
import { sequenceScript, sequenceSteps } from '../../../src/contract/explore/exploration-report.js';
import type { SentStep } from '../../../src/contract/explore/exploration-run.js';

const post = (at: number): SentStep => ({
  request: { method: 'POST', path: '/pets', body: { json: { name: 'a', categoryId: 1 } } },
  status: 201,
  sentAt: at,
  answeredAt: at + 2,
  summary: 'id 31',
});
const get = (at: number, round: number): SentStep => ({
  request: { method: 'GET', path: '/pets/31' },
  status: 404,
  sentAt: at,
  answeredAt: at + 1,
  round,
});

describe('the steps of a failing sequence', () => {
  it('show rounds of reads with the same answers once, then one pause and the last of them', () => {
    const steps = sequenceSteps([post(0), get(3, 1), get(105, 2), get(306, 3), get(708, 4)], {});
    expect(steps.map((step) => ('curl' in step ? `${step.request} ${step.status}` : step))).toEqual([
      'POST /pets 201',
      'GET /pets/31 404',
      { sleepMs: 704, note: 'asked 2 more times meanwhile, with the same answers' },
      'GET /pets/31 404',
    ]);
  });

  it('are lines to paste: the base URL, then each curl with the status it got, and sleep for each pause', () => {
    const script = sequenceScript('http://127.0.0.1:4010/v1', sequenceSteps([post(0), get(3, 1), get(500, 2)], {}));
    expect(script).toEqual([
      "BASE='http://127.0.0.1:4010/v1'   # and CONTRACT_TOKEN, the key",
      expect.stringMatching(/^curl -X POST "\$BASE\/pets" .* -d '\{"name":"a","categoryId":1\}'\s{3}# → 201, id 31$/),
      expect.stringMatching(/^curl "\$BASE\/pets\/31" .*\s{3}# → 404$/),
      'sleep 0.5',
      expect.stringMatching(/^curl "\$BASE\/pets\/31" .*\s{3}# → 404$/),
    ]);
  });

  it('run the requests of a group sent at once together, with & and wait, and say where an earlier exchange was sent', () => {
    const together = (at: number, id: number): SentStep => ({
      ...post(at),
      answeredAt: at + 12 - id,
      summary: `id ${id}`,
      together: 1,
    });
    const earlier: SentStep = { ...post(0), summary: 'id 7', earlier: 'createPet › answers 201 with a Pet' };
    const script = sequenceScript(
      'http://127.0.0.1:4010/v1',
      sequenceSteps([earlier, together(1000, 8), together(1000, 9), get(1020, 1)], {}),
    );
    expect(script).toEqual([
      "BASE='http://127.0.0.1:4010/v1'   # and CONTRACT_TOKEN, the key",
      expect.stringMatching(
        /^curl -X POST .*\s{3}# → 201, id 7 \(earlier in the run: createPet › answers 201 with a Pet\)$/,
      ),
      'sleep 1',
      expect.stringMatching(/^curl -X POST .* &\s{3}# → 201, id 8$/),
      expect.stringMatching(/^curl -X POST .* &\s{3}# → 201, id 9$/),
      'wait',
      // The pause after a group counts from its last answer.
      'sleep 0.02',
      expect.stringMatching(/^curl "\$BASE\/pets\/31" .*\s{3}# → 404$/),
    ]);
  });
});
