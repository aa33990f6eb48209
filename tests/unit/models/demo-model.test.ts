import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelSlug } from '../../../common/catalog.js';
import { demoDiseaseClassifier } from '../../../server/libraries/tflite/recipes.js';

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
