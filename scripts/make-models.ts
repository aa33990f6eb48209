// Writes the demo disease scanner's model and labels into demo-data/scanner/ (npm run models:make).
// The same classes.json always gives the same bytes, so the committed files can be checked.
import fs from 'node:fs';
import path from 'node:path';
import { readTfliteModel } from '../server/libraries/tflite/read-model.js';
import { demoDiseaseClassifier } from '../server/libraries/tflite/recipes.js';

const dir = path.resolve(import.meta.dirname, '..', 'demo-data', 'scanner');
const { classes } = JSON.parse(fs.readFileSync(path.join(dir, 'classes.json'), 'utf8')) as {
  classes: { name: string; meanColour: [number, number, number] }[];
};
const model = await demoDiseaseClassifier(classes);
const facts = await readTfliteModel(model);
fs.writeFileSync(path.join(dir, 'demo-disease-classifier.tflite'), model);
fs.writeFileSync(path.join(dir, 'demo-disease-classifier.labels.txt'), `${facts.metadataLabels!.join('\n')}\n`);
console.log(
  `demo-data/scanner/demo-disease-classifier.tflite: ${model.length} bytes, ${facts.outputSize} classes (${facts.operatorCodes.join(', ')})`,
);
