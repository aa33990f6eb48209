import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelSlug } from '../../../common/catalog.js';
import { demoDiseaseClassifier, demoPlantCheck } from '../../../server/libraries/tflite/recipes.js';

const SCANNER = path.resolve(import.meta.dirname, '../../../demo-data/scanner');

describe('the committed demo disease scanner', () => {
  it('is what npm run models:make makes from classes.json, byte for byte', async () => {
    const { classes } = JSON.parse(fs.readFileSync(path.join(SCANNER, 'classes.json'), 'utf8')) as {
      classes: { name: string; meanColour: [number, number, number] }[];
    };
    const model = await demoDiseaseClassifier(classes);
    expect(
      Buffer.from(model).equals(fs.readFileSync(path.join(SCANNER, 'demo-disease-classifier.tflite'))),
      'run npm run models:make',
    ).toBe(true);
    const labels = fs.readFileSync(path.join(SCANNER, 'demo-disease-classifier.labels.txt'), 'utf8');
    expect(labels).toBe(`${classes.map((c) => labelSlug(c.name)).join('\n')}\n`);
  });
});

describe('the committed demo plant check', () => {
  it('is what npm run models:make makes from classes.json, byte for byte, labelled with the two verdicts', async () => {
    const { classes, notRicePlant } = JSON.parse(fs.readFileSync(path.join(SCANNER, 'classes.json'), 'utf8')) as {
      classes: { meanColour: [number, number, number] }[];
      notRicePlant: { meanColour: [number, number, number] };
    };
    const model = await demoPlantCheck(classes, notRicePlant);
    expect(Buffer.from(model).equals(fs.readFileSync(path.join(SCANNER, 'demo-plant-check.tflite'))), 'run npm run models:make').toBe(true);
    expect(fs.readFileSync(path.join(SCANNER, 'demo-plant-check.labels.txt'), 'utf8')).toBe('not-rice-plant\nrice-plant\n');
  });
});
