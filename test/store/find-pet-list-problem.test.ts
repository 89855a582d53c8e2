import { describe, expect, it } from 'vitest';
import { findPetListProblem } from '../../src/core/store/find-pet-list-problem.js';

describe('findPetListProblem', () => {
  it('finds nothing wrong with unique, safe ids and category ids', () => {
    expect(findPetListProblem([{ id: 1, name: 'A', categoryId: 9007199254740991 }], 'fixture field')).toBeUndefined();
  });

  it('names an id beyond 2^53-1 by its place in the list', () => {
    expect(findPetListProblem([{ id: 2 ** 53, name: 'A', categoryId: 1 }], 'fixture field')).toMatch(
      /^fixture field 'pets\[0\]\.id' must be an integer of at most 2\^53-1/,
    );
  });

  it('names a categoryId beyond 2^53-1', () => {
    const pets = [
      { id: 1, name: 'A', categoryId: 1 },
      { id: 2, name: 'B', categoryId: -(2 ** 60) },
    ];
    expect(findPetListProblem(pets, 'state file field')).toMatch(/^state file field 'pets\[1\]\.categoryId'/);
  });

  it('names the second use of an id', () => {
    const pets = [
      { id: 7, name: 'A', categoryId: 1 },
      { id: 7, name: 'B', categoryId: 1 },
    ];
    expect(findPetListProblem(pets, 'fixture field')).toBe("fixture field 'pets[1].id' repeats id 7");
  });
});
