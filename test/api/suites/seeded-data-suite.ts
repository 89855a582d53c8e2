import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, vi } from 'vitest';
import { createNodeMock } from '../../../src/node/create-node-mock.js';
import { mockOptions, testsFor, type StartOptions, type Subject } from '../../support/behaviour-subject.js';
import { auth, request } from '../../support/start-server.js';
import { temporaryFolder } from '../../support/temporary-folder.js';
import { onTestClock, untilTimers, watched } from '../../support/test-clock.js';

/** Generated data (--seed, --pets), scenarios from fixture files, and the latency asked for at start. */
export function seededDataSuite(subject: Subject): void {
  const r = subject.resource;
  const collection = r.name;
  const everything = r.page ? `?${r.page.name}=${r.page.maximum}` : '';
  const firstPage = async (options: StartOptions): Promise<string> => {
    const target = await subject.start(options);
    try {
      return (await request(`${target.baseUrl}${r.collectionPath}${everything}`, { headers: auth })).text;
    } finally {
      await target.close();
    }
  };
  const fixtureFile = (name: string, items: unknown[]) => {
    const file = join(temporaryFolder('petstore-fixture-'), `${name}.yaml`);
    writeFileSync(file, JSON.stringify({ description: name, [collection]: items }));
    return file;
  };

  const it = testsFor(subject, {});

  describe('seeded data and scenarios', () => {
    it(`serves byte-identical ${r.name} across restarts with the same seed and count`, async () => {
      const first = await firstPage({ seed: 42, pets: 80 });
      const second = await firstPage({ seed: 42, pets: 80 });
      expect(second).toBe(first);
      expect(JSON.parse(first)).toHaveLength(80);
    });

    it(`serves different ${r.name} for a different seed`, async () => {
      expect(await firstPage({ seed: 1 })).not.toBe(await firstPage({ seed: 2 }));
    });

    it(`serves the number of ${r.name} --pets asks for`, async () => {
      expect(JSON.parse(await firstPage({ pets: 7 }))).toHaveLength(7);
    });

    const state = r.state;
    const written = r.newItem({ [r.idField]: 10, ...(state ? { [state.name]: state.values.at(-1) } : {}) });
    testsFor(subject, { scenarioFile: 'a file' })('loads a scenario from a fixture file given by path', async () => {
      const target = await subject.start({ scenarioFile: fixtureFile('my-shop', [written]) });
      try {
        const listed = await request(`${target.baseUrl}${r.collectionPath}`, { headers: auth });
        expect(listed.body).toEqual([written]);
        const scenarios = await request<{ current: string }>(`${target.origin}/__admin/scenarios`, { headers: auth });
        expect(scenarios.body.current).toBe('my-shop');
      } finally {
        await target.close();
      }
    });

    if (state) {
      testsFor(subject, { mock: true })(
        `refuses to start with a fixture that breaks the ${r.itemName}'s schema, naming the file and the field`,
        () => {
          const file = fixtureFile('broken', [{ ...written, [state.name]: 'lost' }]);
          const options = { ...mockOptions(subject.document, {}), scenario: file };
          expect(() => createNodeMock(options)).toThrow(expect.objectContaining({ name: 'FixtureError' }));
          expect(() => createNodeMock(options)).toThrow(
            new RegExp(`broken\\.yaml.*'${collection}\\[0\\]\\.${state.name}'`),
          );
        },
      );
    }

    testsFor(subject, { timers: true })('adds the requested latency before answering, on the test’s clock', () =>
      onTestClock(async () => {
        const target = await subject.start({ latency: { min: 150, max: 150 } });
        try {
          const answer = watched(request(`${target.baseUrl}${r.collectionPath}`, { headers: auth }));
          await untilTimers(1);
          await vi.advanceTimersByTimeAsync(149);
          expect(await answer.settled()).toBe(false);
          await vi.advanceTimersByTimeAsync(1);
          expect((await answer.promise).status).toBe(200);
        } finally {
          await target.close();
        }
      }),
    );
  });
}
