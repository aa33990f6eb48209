// Writes the demo disease scanner's and plant check's models and labels into demo-data/scanner/ (npm run models:make).
// The same classes.json always gives the same bytes, so the committed files can be checked.
import fs from 'node:fs';
import path from 'node:path';
import { readTfliteModel } from '../server/libraries/tflite/read-model.js';
import { demoDiseaseClassifier, demoPlantCheck } from '../server/libraries/tflite/recipes.js';

const dir = path.resolve(import.meta.dirname, '..', 'demo-data', 'scanner');
const { classes, notRicePlant } = JSON.parse(fs.readFileSync(path.join(dir, 'classes.json'), 'utf8')) as {
  classes: { name: string; meanColour: [number, number, number] }[];
  notRicePlant: { meanColour: [number, number, number] };
};
const model = await demoDiseaseClassifier(classes);
const facts = await readTfliteModel(model);
fs.writeFileSync(path.join(dir, 'demo-disease-classifier.tflite'), model);
fs.writeFileSync(path.join(dir, 'demo-disease-classifier.labels.txt'), `${facts.metadataLabels!.join('\n')}\n`);
console.log(
  `demo-data/scanner/demo-disease-classifier.tflite: ${model.length} bytes, ${facts.outputSize} classes (${facts.operatorCodes.join(', ')})`,
);

const plant = await demoPlantCheck(classes, notRicePlant);
const plantFacts = await readTfliteModel(plant);
fs.writeFileSync(path.join(dir, 'demo-plant-check.tflite'), plant);
fs.writeFileSync(path.join(dir, 'demo-plant-check.labels.txt'), `${plantFacts.metadataLabels!.join('\n')}\n`);
console.log(`demo-data/scanner/demo-plant-check.tflite: ${plant.length} bytes, ${plantFacts.outputSize} classes`);
