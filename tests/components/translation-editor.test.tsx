import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LANGUAGE_TEXTS as L } from '../../common/languages';
import { REVIEW_TEXTS } from '../../common/review';
import type { RecordTranslations } from '../../common/schemas/languages';
import { TRANSLATE_TEXTS as T } from '../../common/translate-texts';
import { TranslationEditor } from '../../src/components/translations/translation-editor';
import { json, stubServer, type Call } from './network';

const PATH = '/api/translations/rice_local_diseases/d-1';
const at = '2026-03-01T02:00:00.000Z';

function record(version: number, over: { symptomsStale?: boolean; cause?: string } = {}): RecordTranslations {
  const stale = over.symptomsStale ?? true;
  return {
    collection: 'rice_local_diseases',
    recordId: 'd-1',
    name: 'Sheath blight',
    version,
    languages: [
      { code: 'fil', name: 'Filipino', enabled: true },
      { code: 'pam', name: 'Kapampangan', enabled: true },
      { code: 'ilo', name: 'Ilocano', enabled: false },
    ],
    fields: [
      {
        field: 'name',
        label: 'Name',
        source: 'Sheath blight',
        translations: {
          fil: { text: 'Sheath blight', stale: false, sourceThen: 'Sheath blight', updatedAt: at, updatedByName: 'Elena Reyes' },
        },
      },
      {
        field: 'symptoms',
        label: 'Symptoms',
        source: 'Oval, grey-green lesions on the sheath.',
        translations: {
          fil: {
            text: 'Hugis-itlog na sugat sa kaluban.',
            stale,
            sourceThen: stale ? 'Oval lesions on the sheath.' : 'Oval, grey-green lesions on the sheath.',
            updatedAt: at,
            updatedByName: 'Elena Reyes',
          },
        },
      },
      {
        field: 'cause',
        label: 'Cause',
        source: 'A fungus.',
        translations: over.cause
          ? { fil: { text: over.cause, stale: false, sourceThen: 'A fungus.', updatedAt: at, updatedByName: 'Jose Rizal' } }
          : {},
      },
    ],
  };
}

function renderEditor(handlers: Parameters<typeof stubServer>[0], canEdit = true) {
  const server = stubServer(handlers);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <TranslationEditor collection="rice_local_diseases" recordId="d-1" canEdit={canEdit} />
    </QueryClientProvider>,
  );
  return server;
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT');
const fieldOf = (name: string) => screen.getAllByTestId('translation-field').find((el) => el.dataset.field === name)!;

describe('the translation editor', () => {
  it('shows a stale translation with the English change as a word diff, and "Still correct" sends confirm for that field', async () => {
    let current = record(4);
    const { calls } = renderEditor({
      [`GET ${PATH}`]: () => json(current),
      [`PUT ${PATH}/fil`]: () => {
        current = record(5, { symptomsStale: false });
        return json(current);
      },
    });
    const symptoms = await waitFor(() => fieldOf('symptoms'));
    // The language picker offers the languages in use first, then those not in use yet (translated before they are turned on).
    expect(
      within(screen.getByLabelText(T.language))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Filipino', 'Kapampangan', T.languages.notInUse('Ilocano')]);
    expect(within(symptoms).getByTestId('stale-badge')).toHaveProperty('textContent', L.stale);
    expect(within(fieldOf('name')).queryByTestId('stale-badge')).toBeNull();
    expect(within(fieldOf('cause')).getAllByText(L.missing).length).toBeGreaterThan(0);
    // What changed: "Oval" → "Oval, grey-green", the rest the same.
    const diff = within(symptoms).getByTestId('english-diff');
    expect(diff.querySelector('del')?.textContent).toContain('Oval');
    expect(diff.querySelector('ins')?.textContent).toContain('Oval, grey-green');
    expect(diff.textContent).toContain(' lesions on the sheath.');

    fireEvent.click(within(symptoms).getByRole('button', { name: `${L.confirm}: Symptoms` }));
    await waitFor(() => expect(within(fieldOf('symptoms')).queryByTestId('stale-badge')).toBeNull());
    expect(puts(calls)).toHaveLength(1);
    expect(puts(calls)[0]!.body).toEqual({ version: 4, texts: {}, confirm: ['symptoms'] });
    expect(screen.getByRole('status')).toHaveProperty('textContent', T.confirmed('Symptoms'));
  });

  it("saves the changed fields only, with the record's version, non-ASCII text unchanged", async () => {
    let current = record(7);
    const { calls } = renderEditor({
      [`GET ${PATH}`]: () => json(current),
      [`PUT ${PATH}/fil`]: (call) => {
        current = record(8, { cause: (call.body as { texts: { cause: string } }).texts.cause });
        return json(current);
      },
    });
    const save = await screen.findByRole('button', { name: T.save });
    expect(save).toHaveProperty('disabled', true);
    const text = 'Isang fungus (halamang-singaw); ñ, é, â at ü ay buo.';
    fireEvent.change(within(fieldOf('cause')).getByLabelText(T.fieldIn('Cause', 'Filipino')), { target: { value: text } });
    expect(screen.getByText(T.unsaved(1), { selector: 'span' })).toBeTruthy();
    fireEvent.click(save);
    await waitFor(() => expect(screen.getByRole('status')).toHaveProperty('textContent', T.saved('Filipino')));
    expect(puts(calls).map((c) => c.body)).toEqual([{ version: 7, texts: { cause: text }, confirm: [] }]);
    expect(within(fieldOf('cause')).getByLabelText(T.fieldIn('Cause', 'Filipino'))).toHaveProperty('value', text);
    expect(screen.getByRole('button', { name: T.save })).toHaveProperty('disabled', true);
  });

  it('on 409 shows the conflict, reloads the newest version, keeps the typing, and saves over the newer version', async () => {
    let current = record(3);
    let answered409 = false;
    const { calls } = renderEditor({
      [`GET ${PATH}`]: () => json(current),
      [`PUT ${PATH}/fil`]: (call) => {
        if (!answered409) {
          answered409 = true;
          current = record(4);
          return json(
            {
              error: {
                code: 'VERSION_CONFLICT',
                message: 'This record was changed by someone else since you opened it.',
                currentVersion: 4,
              },
            },
            409,
          );
        }
        current = record(5, { cause: (call.body as { texts: { cause: string } }).texts.cause });
        return json(current);
      },
    });
    const box = await waitFor(() => within(fieldOf('cause')).getByLabelText(T.fieldIn('Cause', 'Filipino')));
    fireEvent.change(box, { target: { value: 'Isang fungus.' } });
    fireEvent.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveProperty('textContent', T.conflict));
    expect(within(fieldOf('cause')).getByLabelText(T.fieldIn('Cause', 'Filipino'))).toHaveProperty('value', 'Isang fungus.');
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(puts(calls).map((c) => (c.body as { version: number }).version)).toEqual([3, 4]);
    await waitFor(() => expect(screen.getByRole('status')).toHaveProperty('textContent', T.saved('Filipino')));
  });

  it('on 202 shows that the change was sent for review (review before publishing is on)', async () => {
    const { calls } = renderEditor({
      [`GET ${PATH}`]: () => json(record(2)),
      [`PUT ${PATH}/pam`]: () => json({ review: { id: 'change-1', action: 'translate' }, message: REVIEW_TEXTS.sentForReview }, 202),
    });
    const picker = await screen.findByLabelText(T.language);
    fireEvent.change(picker, { target: { value: 'pam' } });
    expect(within(fieldOf('symptoms')).queryByTestId('stale-badge')).toBeNull();
    fireEvent.change(within(fieldOf('symptoms')).getByLabelText(T.fieldIn('Symptoms', 'Kapampangan')), {
      target: { value: 'Sugat a malagu.' },
    });
    fireEvent.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveProperty('textContent', REVIEW_TEXTS.sentForReview));
    expect(puts(calls)[0]!.url.pathname).toBe(`${PATH}/pam`);
  });

  it('is read-only without the permission to edit', async () => {
    renderEditor({ [`GET ${PATH}`]: () => json(record(2)) }, false);
    const box = await waitFor(() => within(fieldOf('symptoms')).getByLabelText(T.fieldIn('Symptoms', 'Filipino')));
    expect(box).toHaveProperty('readOnly', true);
    expect(screen.queryByRole('button', { name: T.save })).toBeNull();
    expect(screen.queryByRole('button', { name: `${L.confirm}: Symptoms` })).toBeNull();
    expect(screen.getByText(T.readOnly)).toBeTruthy();
  });
});
