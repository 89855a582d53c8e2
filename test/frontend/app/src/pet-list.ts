import type { NewPet, Pet } from 'petstore-kit/msw';
import type { PetClient } from './pet-client.js';

/** What the component shows, for tests and for whoever mounts it. */
export interface PetList {
  /** Lists the pets again. */
  refresh(): Promise<void>;
  /** Adds a pet, then lists the pets again. */
  add(draft: NewPet): Promise<Pet | undefined>;
}

/**
 * A small component in plain DOM: the pets as a list, a form that adds one,
 * and an alert that says what went wrong. It renders into `root`, with the
 * document `root` belongs to.
 */
export function mountPetList(root: HTMLElement, client: PetClient): PetList {
  const page = root.ownerDocument;
  const list = page.createElement('ul');
  const form = page.createElement('form');
  const name = page.createElement('input');
  name.name = 'name';
  name.setAttribute('aria-label', 'Name');
  const category = page.createElement('input');
  category.name = 'categoryId';
  category.type = 'number';
  category.setAttribute('aria-label', 'Category');
  const submit = page.createElement('button');
  submit.type = 'submit';
  submit.textContent = 'Add';
  form.append(name, category, submit);
  const alert = page.createElement('p');
  alert.setAttribute('role', 'alert');
  root.replaceChildren(list, form, alert);

  const refresh = async (): Promise<void> => {
    const { data, error } = await client.GET('/pets', { params: { query: { limit: 100 } } });
    if (error) {
      alert.textContent = `Could not list the pets: ${error.message}`;
      list.replaceChildren();
      return;
    }
    alert.textContent = '';
    list.replaceChildren(
      ...data.map((pet) => {
        const item = page.createElement('li');
        item.textContent = `${pet.id} ${pet.name}${pet.status ? ` (${pet.status})` : ''}`;
        return item;
      }),
    );
  };

  const add = async (draft: NewPet): Promise<Pet | undefined> => {
    const { data, error } = await client.POST('/pets', { body: draft });
    if (error) {
      alert.textContent = `Could not add ${draft.name}: ${error.message}`;
      return undefined;
    }
    await refresh();
    return data;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void add({ name: name.value, categoryId: Number(category.value) });
  });
  return { refresh, add };
}
