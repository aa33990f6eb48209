import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { MODEL_SCREEN_TEXTS as S } from '../../common/model-screen-texts';
import { MODEL_TEXTS as T, THRESHOLD_MARGINS } from '../../common/models';
import type { EvaluationReport, ModelInspection, ModelsOverview, ScannerModel } from '../../common/schemas/models';
import { ToastProvider } from '../../src/components/ui/toast';
import { failedChecks } from '../../src/features/models/api';
import { ModelsScreens } from '../../src/features/models/screens';
import { api } from '../../src/lib/api';
import { NAV } from '../../src/app/nav';
import { can } from '../../common/permissions';
import { SHELL } from '../../common/texts';
import { json, stubServer, type Call } from './network';

const evaluation = (over: Partial<ScannerModel['evaluations'][number]> = {}): ScannerModel['evaluations'][number] => ({
  id: 'ev-1',
  state: 'done',
  split: 'test',
  seed: 'palayan',
  total: 40,
  done: 40,
  accuracy: 0.925,
  macroF1: 0.9,
  current: true,
  evaluationSet: null,
  error: null,
  createdAt: '2026-03-01T01:00:00.000Z',
  finishedAt: '2026-03-01T01:05:00.000Z',
  ...over,
});

function model(over: Partial<ScannerModel> = {}): ScannerModel {
  return {
    id: 'm-2',
    stage: 'disease',
    version: 'disease-2',
    number: 2,
    sha256: 'ab'.repeat(32),
    size: 5 * 1024 * 1024,
    inputShape: [1, 224, 224, 3],
    inputType: 'float32',
    outputQuantization: null,
    contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' },
    contractSearch: null,
    thresholds: { confidence: 0.5, margin: 0 },
    labels: [
      { index: 0, label: 'rice-blast', recordId: 'd-1', verdict: null, recordName: 'Rice blast', localName: null, live: true },
      { index: 1, label: 'brown-spot', recordId: null, verdict: null, recordName: null, localName: null, live: false },
    ],
    note: 'Retrained on the March photos',
    recordVersion: 3,
    createdAt: '2026-03-01T00:00:00.000Z',
    createdBy: 'Elena Reyes',
    channels: [],
    evaluations: [evaluation()],
    ...over,
  };
}

const overview = (models: ScannerModel[]): ModelsOverview => ({
  models,
  publications: [
    {
      id: 'p-2',
      stage: 'disease',
      channel: 'live',
      action: 'publish',
      version: 'disease-1',
      share: 100,
      note: 'First model',
      overrideReason: 'The field test could not wait for the photos',
      by: 'Elena Reyes',
      at: '2026-02-01T00:00:00.000Z',
    },
  ],
});

function renderAt(path: string, handlers: Parameters<typeof stubServer>[0]) {
  const server = stubServer(handlers);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/dashboard/scanner_models/*" element={<ModelsScreens />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return server;
}

/** XMLHttpRequest (the uploads' progress) answered by URL; the multipart bodies are kept. */
function stubUploads(answers: Record<string, () => { status: number; body: unknown }>) {
  const sent: Array<{ url: string; form: FormData }> = [];
  vi.stubGlobal(
    'XMLHttpRequest',
    class {
      upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
      status = 0;
      responseText = '';
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      private url = '';
      open(_method: string, url: string) {
        this.url = url;
      }
      setRequestHeader() {
        /* accept: json */
      }
      abort() {
        this.onabort?.();
      }
      send(form: FormData) {
        sent.push({ url: this.url, form });
        setTimeout(() => {
          this.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 });
          const answer = answers[this.url]?.() ?? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no stub' } } };
          this.status = answer.status;
          this.responseText = JSON.stringify(answer.body);
          this.onload?.();
        }, 0);
      }
    },
  );
  return sent;
}

describe('Scanner models screen', () => {
  it('has a sidebar entry for super admins only, named as the screen names itself', () => {
    const entry = NAV.find((e) => e.path === '/dashboard/scanner_models')!;
    expect(entry.label).toBe(T.nav);
    expect(SHELL.nav.scannerModels).toBe(T.nav);
    expect(can('SYSTEM_ADMIN', entry.permission)).toBe(true);
    expect(can('ADMIN', entry.permission)).toBe(false);
  });

  it("shows each stage's live model and pilot, the models with their warnings and progress, and the publications", async () => {
    const running = model({
      id: 'm-3',
      version: 'disease-3',
      evaluations: [evaluation({ id: 'ev-3', state: 'running', total: 200, done: 50, accuracy: null, macroF1: null, finishedAt: null })],
    });
    const live = model({
      id: 'm-1',
      version: 'disease-1',
      channels: [{ channel: 'live', share: 100 }],
      labels: model().labels.slice(0, 1),
    });
    const server = renderAt('/dashboard/scanner_models', {
      'GET /api/models': () => json(overview([running, model({ channels: [{ channel: 'pilot', share: 20 }] }), live])),
      'POST /api/models/m-3/evaluations/ev-3/cancel': () => json(evaluation({ id: 'ev-3', state: 'cancelled' })),
    });
    const disease = await screen.findByTestId('stage-disease');
    expect(within(within(disease).getByTestId('slot-live')).getByTestId('slot-version').textContent).toBe('disease-1');
    expect(within(disease).getByTestId('slot-pilot').textContent).toContain(S.stagePanel.share(20));
    expect(within(disease).getByTestId('slot-live').textContent).toContain('First model');
    expect(within(screen.getByTestId('stage-plant')).getByRole('button', { name: T.rollback })).toHaveProperty('disabled', true);

    const cards = screen.getAllByTestId('model-card');
    expect(cards.map((c) => c.dataset.version)).toEqual(['disease-3', 'disease-2', 'disease-1']);
    // brown-spot has no record: the card warns; disease-1's one label is mapped.
    expect(within(cards[1]!).getByTestId('labels-warning').textContent).toBe(S.list.labelsWarning(1));
    expect(within(cards[2]!).queryByTestId('labels-warning')).toBeNull();
    expect(within(cards[1]!).getByTestId('evaluation-result').textContent).toContain(S.list.result(0.925, 0.9));
    expect(within(cards[1]!).getByRole('link', { name: S.list.actions.report }).getAttribute('href')).toBe(
      '/dashboard/scanner_models/m-2/evaluations/ev-1',
    );
    expect(within(cards[1]!).getByRole('link', { name: S.list.actions.download }).getAttribute('href')).toBe('/api/models/m-2/file');

    const progress = within(cards[0]!).getByRole('progressbar', { name: S.list.progress('disease-3') });
    expect(progress.getAttribute('aria-valuenow')).toBe('25');
    expect(progress.getAttribute('aria-valuetext')).toBe(T.evaluating(50, 200));
    fireEvent.click(within(cards[0]!).getByRole('button', { name: T.cancel }));
    await waitFor(() =>
      expect(server.calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/models/m-3/evaluations/ev-3/cancel')).toBe(true),
    );

    expect(screen.getByTestId('override-reason').textContent).toContain('The field test could not wait for the photos');
  });

  it('a publish refused by its checks lists them and sends again only with a written reason', async () => {
    const publishes: Call[] = [];
    renderAt('/dashboard/scanner_models', {
      'GET /api/models': () => json(overview([model()])),
      'POST /api/models/m-2/publish': (call) => {
        publishes.push(call);
        if (!(call.body as { overrideReason?: string }).overrideReason)
          return json({ error: { code: 'CONFLICT', message: 'Checks failed', checks: [T.refused.noEvaluation] } }, 409);
        return json(overview([model({ channels: [{ channel: 'pilot', share: 20 }] })]));
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: S.list.actions.publish }));
    const dialog = await screen.findByRole('dialog', { name: S.publishing.title('disease-2') });
    fireEvent.change(within(dialog).getByLabelText(S.publishing.share), { target: { value: '20' } });
    fireEvent.change(within(dialog).getByLabelText(S.publishing.note), { target: { value: 'Try it on a fifth of the installs' } });
    fireEvent.click(within(dialog).getByRole('button', { name: T.publish }));

    await within(dialog).findByText(T.refused.noEvaluation);
    expect(publishes[0]!.body).toEqual({
      channel: 'pilot',
      share: 20,
      note: 'Try it on a fifth of the installs',
      thresholds: { confidence: 0.5, margin: 0 },
    });
    const anyway = within(dialog).getByRole('button', { name: S.publishing.override });
    fireEvent.change(within(dialog).getByLabelText(S.publishing.reason), { target: { value: 'too short' } });
    fireEvent.click(anyway);
    await within(dialog).findByText(T.reasonNeeded);
    expect(publishes).toHaveLength(1);

    fireEvent.change(within(dialog).getByLabelText(S.publishing.reason), {
      target: { value: 'The field team needs it before the wet season' },
    });
    fireEvent.click(anyway);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(publishes[1]!.body).toMatchObject({
      channel: 'pilot',
      share: 20,
      overrideReason: 'The field team needs it before the wet season',
    });
  });

  it('the publish dialog starts from the recommended thresholds, says what typed ones would do, and sends them', async () => {
    const publishes: Call[] = [];
    renderAt('/dashboard/scanner_models', {
      'GET /api/models': () => json(overview([model()])),
      'GET /api/models/m-2/evaluations/ev-1': () => json(report),
      'POST /api/models/m-2/publish': (call) => {
        publishes.push(call);
        return json(overview([model({ channels: [{ channel: 'live', share: 100 }] })]));
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: S.list.actions.publish }));
    const dialog = await screen.findByRole('dialog', { name: S.publishing.title('disease-2') });
    const confidence = within(dialog).getByLabelText<HTMLInputElement>(S.form.confidence);
    await waitFor(() => expect(confidence.value).toBe('0.62'));
    expect(within(dialog).getByLabelText<HTMLInputElement>(S.form.margin).value).toBe('0.1');
    within(dialog).getByText(S.publishing.fromRecommendation(0.95));
    expect(within(dialog).getByTestId('thresholds-estimate').textContent).toBe(S.publishing.estimate(0.38, 0.974));
    expect(within(dialog).queryByTestId('thresholds-below-target')).toBeNull();
    fireEvent.change(confidence, { target: { value: '0.3' } });
    expect((await within(dialog).findByTestId('thresholds-below-target')).textContent).toBe(S.publishing.missesTarget(0.95));
    fireEvent.change(within(dialog).getByLabelText(S.form.margin), { target: { value: '0.07' } });
    await waitFor(() =>
      expect(within(dialog).getByTestId('thresholds-estimate').textContent).toBe(S.publishing.noEstimate(THRESHOLD_MARGINS)),
    );
    fireEvent.click(within(dialog).getByRole('radio', { name: new RegExp(`^${T.channel.live}`) }));
    fireEvent.change(within(dialog).getByLabelText(S.publishing.note), { target: { value: 'For everyone' } });
    fireEvent.click(within(dialog).getByRole('button', { name: T.publish }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(publishes[0]!.body).toMatchObject({ channel: 'live', thresholds: { confidence: 0.3, margin: 0.07 } });
  });

  it("reads a refusal's checks whether they come inside the error or beside a flat error message", async () => {
    stubServer({
      'POST /api/models/a/publish': () => json({ error: { code: 'CONFLICT', message: 'Checks failed', checks: ['one'] } }, 409),
      'POST /api/models/b/publish': () => json({ error: 'Checks failed', checks: ['two'] }, 409),
      'POST /api/models/c/publish': () => json({ error: { code: 'VERSION_CONFLICT', message: 'Changed meanwhile' } }, 409),
    });
    const refusal = (id: string) => api(`/api/models/${id}/publish`, { method: 'POST', body: {} }).catch((err: unknown) => err);
    expect(failedChecks(await refusal('a'))).toEqual(['one']);
    const flat = await refusal('b');
    expect(failedChecks(flat)).toEqual(['two']);
    expect(flat).toMatchObject({ status: 409, message: 'Checks failed' });
    expect(failedChecks(await refusal('c'))).toBeNull();
  });

  it('the upload checks the file, maps the labels (unmatched ones flagged) and sends meta first, then the model', async () => {
    const contract = (scaling: '0-1' | '-1-1', resize: 'stretch' | 'center-crop') => ({ scaling, mean: null, std: null, resize });
    const inspection: ModelInspection = {
      metadataContract: null,
      contractSearch: {
        photos: 20,
        trials: [
          { contract: contract('-1-1', 'stretch'), accuracy: 0.9 },
          { contract: contract('-1-1', 'center-crop'), accuracy: 0.85 },
          { contract: contract('0-1', 'stretch'), accuracy: 0.5 },
        ],
      },
      inputShape: [1, 224, 224, 3],
      inputType: 'float32',
      outputQuantization: null,
      outputSize: 2,
      operators: ['CONV_2D', 'SOFTMAX'],
      sha256: 'cd'.repeat(32),
      size: 2048,
      labelsFrom: 'metadata',
      labels: [
        { index: 0, label: 'rice-blast', recordId: 'd-1', verdict: null, matchedBy: 'name' },
        { index: 1, label: 'mystery-spot', recordId: null, verdict: null, matchedBy: 'none' },
      ],
      records: [
        { id: 'd-1', name: 'Rice blast', localName: 'Leeg', trainingClass: false },
        { id: 'd-2', name: 'Brown spot', localName: null, trainingClass: false },
        { id: 't-1', name: 'Healthy leaf', localName: null, trainingClass: true },
      ],
    };
    const sent = stubUploads({
      '/api/models/inspect': () => ({ status: 200, body: inspection }),
      '/api/models': () => ({ status: 201, body: model({ id: 'm-9', version: 'disease-9' }) }),
    });
    renderAt('/dashboard/scanner_models', { 'GET /api/models': () => json(overview([])) });
    fireEvent.click(await screen.findByRole('button', { name: T.upload }));
    const dialog = await screen.findByRole('dialog', { name: S.form.uploadTitle });
    const file = new File([new Uint8Array(2048)], 'blast.tflite');
    fireEvent.change(within(dialog).getByLabelText(S.form.modelFile), { target: { files: [file] } });
    fireEvent.click(within(dialog).getByRole('button', { name: T.check }));

    await within(dialog).findByText(S.form.inputDescription([1, 224, 224, 3], 'float32'));
    // The ways of preparing a photo tried on held-out photos, best first and chosen.
    const trials = within(dialog).getByTestId('contract-trials');
    expect(within(trials).getAllByRole('listitem')[0]!.textContent).toContain(S.form.contractTrial(T.scaling['-1-1'], T.resize.stretch));
    expect((within(dialog).getByRole('combobox', { name: S.form.scaling }) as HTMLSelectElement).value).toBe('-1-1');
    const rows = within(dialog).getAllByTestId('mapping-row');
    expect(rows[1]!.dataset.unmapped).toBe('true');
    expect(within(dialog).getByTestId('mapping-problems').textContent).toContain(T.unmapped(['mystery-spot']));
    fireEvent.click(within(dialog).getByRole('button', { name: T.upload }));
    await within(dialog).findByRole('alert');
    expect(sent).toHaveLength(1);

    fireEvent.change(within(dialog).getByRole('combobox', { name: S.mapping.chooseFor('mystery-spot') }), { target: { value: 'd-2' } });
    expect(within(dialog).queryByTestId('mapping-problems')).toBeNull();
    // A way that scored clearly worse than the best is asked about once, then kept.
    fireEvent.change(within(dialog).getByRole('combobox', { name: S.form.scaling }), { target: { value: '0-1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: T.upload }));
    // The mapping's alert is still up until the submit has run: wait for the new text.
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(T.worseContract(0.5, 0.9)));
    expect(sent).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: T.upload }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent.map((s) => s.url)).toEqual(['/api/models/inspect', '/api/models']);
    const form = sent[1]!.form;
    expect([...form.keys()]).toEqual(['meta', 'model']);
    expect(JSON.parse(form.get('meta') as string)).toEqual({
      stage: 'disease',
      contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' },
      thresholds: { confidence: 0.5, margin: 0 },
      note: '',
      mapping: [
        { recordId: 'd-1', verdict: null },
        { recordId: 'd-2', verdict: null },
      ],
      // Asked twice: the server keeps the worse way only when told.
      acceptWorseContract: true,
    });
    expect(JSON.parse(sent[0]!.form.get('meta') as string)).toEqual({ stage: 'disease' });
  });
});

const report: EvaluationReport = {
  evaluation: {
    ...evaluation(),
    modelId: 'm-2',
    version: 'disease-2',
    sha256: 'ab'.repeat(32),
    photoSetSha256: 'ef'.repeat(32),
    ratios: { train: 0.8, validation: 0.1, test: 0.1 },
  },
  classes: [
    { key: 'd-1', name: 'Rice blast', recordId: 'd-1' },
    { key: 'd-2', name: 'Brown spot', recordId: 'd-2' },
  ],
  matrix: [
    [18, 2],
    [0, 20],
  ],
  perClass: [
    {
      key: 'd-1',
      index: 0,
      label: 'rice-blast',
      recordId: 'd-1',
      name: 'Rice blast',
      precision: 1,
      recall: 0.9,
      f1: 0.947,
      support: 20,
      fewPhotos: false,
      f1Delta: 0.05,
      recallDelta: 0.1,
    },
    {
      key: 'd-2',
      index: 1,
      label: 'brown-spot',
      recordId: 'd-2',
      name: 'Brown spot',
      precision: 0.909,
      recall: 1,
      f1: 0.952,
      support: 20,
      fewPhotos: false,
      f1Delta: -0.01,
      recallDelta: 0,
    },
  ],
  weakest: 'd-1',
  accuracy: 0.95,
  macroF1: 0.95,
  coverage: [
    { threshold: 0, coverage: 1, accuracy: 0.95 },
    { threshold: 0.5, coverage: 0.9, accuracy: 0.97 },
    { threshold: 0.9, coverage: 0.5, accuracy: 1 },
  ],
  threshold: 0.5,
  atThreshold: { coverage: 0.9, accuracy: 0.97 },
  calibration: {
    bins: Array.from({ length: 10 }, (_, i) => ({
      from: i / 10,
      to: (i + 1) / 10,
      count: i < 5 ? 0 : 4,
      confidence: i < 5 ? null : i / 10 + 0.05,
      accuracy: i < 5 ? null : i / 10,
    })),
    ece: 0.05,
  },
  recommended: { target: 0.95, thresholds: { confidence: 0.62, margin: 0.1, coverage: 0.38, accuracy: 0.974 } },
  thresholdGrid: [0, 0.1].map((margin) => ({
    margin,
    points: Array.from({ length: 101 }, (_, s) => ({ coverage: 1 - s / 100, accuracy: Math.min(1, 0.85 + (0.2 * s) / 100) })),
  })),
  comparison: { version: 'disease-1', evaluationId: 'ev-0', accuracy: 0.9, macroF1: 0.89, fixed: 3, broken: 1 },
};

describe("An evaluation's report", () => {
  it('draws the matrix as buttons, and a cell shows its photos with links to the disease', async () => {
    const server = renderAt('/dashboard/scanner_models/m-2/evaluations/ev-1', {
      'GET /api/models/m-2/evaluations/ev-1': () => json(report),
      'GET /api/models/m-2/evaluations/ev-1/photos': () =>
        json({
          total: 2,
          photos: [
            {
              imageId: 'i-1',
              diseaseId: 'd-1',
              diseaseName: 'Rice blast',
              thumbUrl: '/thumb/i-1.jpg',
              predicted: 'brown-spot',
              confidence: 0.61,
              top: [
                { label: 'brown-spot', confidence: 0.61 },
                { label: 'rice-blast', confidence: 0.3 },
              ],
              liveVerdict: null,
            },
          ],
        }),
    });
    expect((await screen.findByTestId('report-accuracy')).textContent).toBe('95.0 %');
    expect(screen.getByTestId('report-comparison').textContent).toBe(S.report.comparedWith('disease-1'));
    expect(screen.getAllByTestId('class-row')[1]!.textContent).toContain('−0.010');
    const chart = screen.getByRole('img', { name: new RegExp(T.report.coverage) });
    expect(chart.querySelector('desc')!.textContent).toBe(S.report.coverageDesc(0.5, 0.9, 0.97));
    expect(screen.getByRole('link', { name: T.report.csv }).getAttribute('href')).toBe('/api/models/m-2/evaluations/ev-1/predictions.csv');

    // Zero cells are not buttons; the two mistakes are.
    const matrix = screen.getByTestId('confusion-matrix');
    expect(within(matrix).getAllByRole('button')).toHaveLength(3);
    fireEvent.click(within(matrix).getByRole('button', { name: S.report.cellLabel('Rice blast', 'Brown spot', 2, 0.1) }));
    const photos = await screen.findByTestId('cell-photos');
    await within(photos).findByText(S.report.predictedAs('Brown spot', 0.61));
    const call = server.calls.find((c) => c.url.pathname.endsWith('/photos'))!;
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ actual: 'd-1', predicted: 'd-2' });
    expect(
      within(photos)
        .getByRole('link', { name: S.report.linkFor(S.report.openDisease, 'Rice blast') })
        .getAttribute('href'),
    ).toBe('/dashboard/rice_diseases?open=d-1');
    expect(within(photos).getByRole('link', { name: S.report.openHealth }).getAttribute('href')).toBe('/dashboard/rice_diseases/health');
    expect(within(photos).getByTestId('prediction-photo').querySelector('figure')!.getAttribute('title')).toBe(
      S.report.top([
        { label: 'Brown spot', confidence: 0.61 },
        { label: 'Rice blast', confidence: 0.3 },
      ]),
    );

    fireEvent.click(screen.getByTestId('changed-fixed'));
    await waitFor(() => expect(server.calls.some((c) => c.url.searchParams.get('changed') === 'fixed')).toBe(true));
  });
});

/** Three classes: two tie on F1, and the one on two photos is the weaker of them. */
const threeClasses: EvaluationReport = {
  ...report,
  classes: [
    { key: 'd-1', name: 'Rice blast', recordId: 'd-1' },
    { key: 'd-2', name: 'Brown spot', recordId: 'd-2' },
    { key: 'd-3', name: 'Tungro', recordId: 'd-3' },
  ],
  matrix: [
    [1, 1, 0],
    [0, 27, 3],
    [0, 0, 25],
  ],
  perClass: [
    { ...report.perClass[0]!, precision: 1, recall: 0.5, f1: 0.667, support: 2, fewPhotos: true, f1Delta: null, recallDelta: null },
    {
      ...report.perClass[0]!,
      key: 'd-3',
      index: 2,
      label: 'tungro',
      recordId: 'd-3',
      name: 'Tungro',
      precision: 0.893,
      recall: 0.5,
      f1: 0.667,
      support: 25,
      fewPhotos: false,
      f1Delta: null,
      recallDelta: null,
    },
    { ...report.perClass[1]!, precision: 0.964, recall: 0.9, f1: 0.931, support: 30, f1Delta: null, recallDelta: null },
  ],
  weakest: 'd-1',
  accuracy: 0.947,
  comparison: null,
};

const rowNames = () => screen.getAllByTestId('class-row').map((r) => within(r).getByRole('rowheader').textContent);
const heading = (name: string) =>
  within(screen.getByRole('region', { name: S.report.tableOf(T.report.perClass) })).getByRole('columnheader', { name });

describe("The report's weakest classes, sorting and explanations", () => {
  it('names the weakest class first, lists the table weakest first and marks the classes on few photos', async () => {
    renderAt('/dashboard/scanner_models/m-2/evaluations/ev-1', { 'GET /api/models/m-2/evaluations/ev-1': () => json(threeClasses) });
    const weakest = await screen.findByTestId('report-weakest');
    expect(weakest.textContent).toBe(S.report.weakest('Rice blast', 0.667, 2));
    expect(weakest.textContent).toBe('Weakest: Rice blast, F1 0.67 on 2 photos');
    // The weakest line comes before the summary's figures, and carries its own caution.
    expect(weakest.compareDocumentPosition(screen.getByTestId('report-accuracy')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(weakest.parentElement!.querySelector('[data-testid="few-photos"]')).not.toBeNull();

    expect(rowNames()).toEqual(['Rice blast', 'Tungro', 'Brown spot']);
    expect(heading(S.report.columns.f1).getAttribute('aria-sort')).toBe('ascending');
    expect(heading(S.report.columns.name).getAttribute('aria-sort')).toBe('none');
    const rows = screen.getAllByTestId('class-row');
    expect(within(rows[0]!).getByTestId('few-photos').textContent).toBe(S.report.fewPhotos);
    expect(within(rows[0]!).getByTestId('few-photos').getAttribute('title')).toBe(S.report.fewPhotosHelp);
    expect(within(rows[1]!).queryByTestId('few-photos')).toBeNull();
    expect(screen.getByTestId('few-photos-note').textContent).toBe(S.report.fewPhotosHelp);
  });

  it('sorts by a column heading, and again the other way; ties keep the weakest first', async () => {
    renderAt('/dashboard/scanner_models/m-2/evaluations/ev-1', { 'GET /api/models/m-2/evaluations/ev-1': () => json(threeClasses) });
    await screen.findByTestId('report-weakest');
    const button = (name: string) => within(heading(name)).getByRole('button', { name });

    fireEvent.click(button(S.report.columns.name));
    expect(rowNames()).toEqual(['Brown spot', 'Rice blast', 'Tungro']);
    expect(heading(S.report.columns.name).getAttribute('aria-sort')).toBe('ascending');
    expect(heading(S.report.columns.f1).getAttribute('aria-sort')).toBe('none');
    expect(screen.getByTestId('class-sort').textContent).toBe(S.report.sortedBy(S.report.columns.name, 'ascending', true));
    fireEvent.click(button(S.report.columns.name));
    expect(rowNames()).toEqual(['Tungro', 'Rice blast', 'Brown spot']);
    expect(heading(S.report.columns.name).getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(button(S.report.columns.support));
    expect(rowNames()).toEqual(['Rice blast', 'Tungro', 'Brown spot']);
    fireEvent.click(button(S.report.columns.precision));
    expect(rowNames()).toEqual(['Tungro', 'Brown spot', 'Rice blast']);
    fireEvent.click(button(S.report.columns.f1));
    fireEvent.click(button(S.report.columns.f1));
    expect(heading(S.report.columns.f1).getAttribute('aria-sort')).toBe('descending');
    expect(rowNames()).toEqual(['Brown spot', 'Rice blast', 'Tungro']);
    // The headings are buttons, so the keyboard reaches and presses them.
    expect(button(S.report.columns.recall).tagName).toBe('BUTTON');
    expect(button(S.report.columns.recall).getAttribute('type')).toBe('button');
  });

  it('explains each accuracy and folds the seed and fingerprints into Technical details', async () => {
    renderAt('/dashboard/scanner_models/m-2/evaluations/ev-1', { 'GET /api/models/m-2/evaluations/ev-1': () => json(threeClasses) });
    await screen.findByTestId('report-weakest');
    expect(screen.getByText(S.report.accuracyHelp(40))).toBeTruthy();
    expect(screen.getByText(S.report.balancedHelp)).toBeTruthy();
    expect(screen.getByTestId('report-right-when-answered').textContent).toBe('97.0 %');
    expect(screen.getByText(S.report.rightWhenAnswered)).toBeTruthy();
    expect(screen.getByText(S.report.rightWhenAnsweredHelp)).toBeTruthy();
    expect(screen.getByText(S.report.answeredHelp(0.5))).toBeTruthy();
    expect(screen.getByTestId('report-answered').textContent).toBe('90.0 %');

    const technical = screen.getByTestId('report-technical');
    expect(technical.tagName).toBe('DETAILS');
    expect((technical as HTMLDetailsElement).open).toBe(false);
    expect(within(technical).getByText(S.report.technical).tagName).toBe('SUMMARY');
    for (const value of ['palayan', 'ab'.repeat(32), 'ef'.repeat(32)]) {
      const shown = screen.getByText(value);
      expect(technical.contains(shown)).toBe(true);
    }
    expect(within(technical).getByText(S.report.ratiosValue({ train: 0.8, validation: 0.1, test: 0.1 }))).toBeTruthy();
  });

  it("says so when every class is perfect instead of naming a 'weakest'", async () => {
    const perfect: EvaluationReport = {
      ...threeClasses,
      perClass: threeClasses.perClass.map((c) => ({ ...c, precision: 1, recall: 1, f1: 1 })),
    };
    renderAt('/dashboard/scanner_models/m-2/evaluations/ev-1', { 'GET /api/models/m-2/evaluations/ev-1': () => json(perfect) });
    expect((await screen.findByTestId('report-weakest')).textContent).toBe(S.report.noWeakClass);
  });

  it("scrolls a chosen cell's photos into view and moves the focus to their heading", async () => {
    const scrolled: Element[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      renderAt('/dashboard/scanner_models/m-2/evaluations/ev-1', {
        'GET /api/models/m-2/evaluations/ev-1': () => json(threeClasses),
        'GET /api/models/m-2/evaluations/ev-1/photos': () => json({ total: 0, photos: [] }),
      });
      const matrix = await screen.findByTestId('confusion-matrix');
      fireEvent.click(within(matrix).getByRole('button', { name: S.report.cellLabel('Rice blast', 'Brown spot', 1, 0.5) }));
      const photos = await screen.findByTestId('cell-photos');
      const title = within(photos).getByRole('heading', { name: S.report.cellTitle('Rice blast', 'Brown spot') });
      await waitFor(() => expect(document.activeElement).toBe(title));
      expect(scrolled).toContain(photos);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });
});
