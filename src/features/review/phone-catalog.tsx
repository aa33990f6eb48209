import { ImageOff } from 'lucide-react';
import { APP_PREVIEW as A } from '../../../common/review-screen-texts';
import { bulletLines, field, imagesOf, LabelLine, listField, Part, type AppRecord } from './preview-parts';

/** The sections of the app's pest and disease screens, and the API fields each shows. */
export const CATALOG_SECTIONS = {
  image: ['mainImage'],
  name: ['name'],
  localName: ['localName'],
  scientificName: ['scientificName'],
  affectedParts: ['affectedParts'],
  description: ['description'],
  symptoms: ['symptoms'],
  cause: ['cause'],
  treatments: ['treatments'],
} as const;

/** A heading and its text in the app's white card ("Description", "Symtomps", …). */
function CardPart({ title, lines, changed }: { title: string; lines: string[]; changed: boolean }) {
  return (
    <Part changed={changed} className="pb-2.5">
      <h4 className="text-base font-semibold text-[#008200]">{title}</h4>
      <p className="whitespace-pre-line text-[15px] leading-snug text-[#515151]">{lines.join('\n')}</p>
    </Part>
  );
}

/**
 * The app's DiseaseDetails / PestDetails screen (activity_disease_details.xml,
 * activity_pest_details.xml): the main photo in a 250 dp card; the name, local name (diseases),
 * scientific name and affected parts (diseases); then one white card with Description, Symtomps,
 * Cause and Treatments, the last three as the app's bullet lists.
 */
export function CatalogScreen({ kind, record, changed }: { kind: 'pest' | 'disease'; record: AppRecord; changed: Set<string> }) {
  const disease = kind === 'disease';
  // DiseaseDetails shows "No data available" for an empty text; PestDetails shows nothing.
  const shown = (key: string) => field(record, key) ?? (disease ? A.noData : '');
  const main = imagesOf(record)[0];
  const name = field(record, 'name') ?? '';
  const parts = listField(record, 'affectedParts');
  return (
    <div className="px-5 pb-6 pt-2.5">
      <Part changed={changed.has('image')} className="mt-[15px]">
        <div className="h-[250px] overflow-hidden rounded-[15px] bg-[#E5E5E5] shadow-md">
          {main ? (
            <img src={main.displayUrl} alt={name} className="h-full w-full object-cover" />
          ) : (
            <span className="flex h-full items-center justify-center text-[#515151]">
              <ImageOff className="h-8 w-8" aria-hidden />
            </span>
          )}
        </div>
      </Part>
      <Part changed={changed.has('name')}>
        <LabelLine size="large" label={disease ? A.diseaseName : A.pestName} value={shown('name')} />
      </Part>
      {disease && (
        <Part changed={changed.has('localName')}>
          <LabelLine label={A.localName} value={shown('localName')} />
        </Part>
      )}
      <Part changed={changed.has('scientificName')}>
        <LabelLine label={A.scientificName} value={shown('scientificName')} />
      </Part>
      {disease && (
        <Part changed={changed.has('affectedParts')}>
          <LabelLine label={A.affectedParts} value={(parts.length > 0 ? parts.map((p) => `• ${p}`) : bulletLines(null)).join('\n')} />
        </Part>
      )}
      <div className="mt-[15px] space-y-1 rounded-[10px] bg-white p-2.5 shadow-sm">
        <CardPart title={A.description} lines={[shown('description')]} changed={changed.has('description')} />
        <CardPart title={A.symptoms} lines={bulletLines(field(record, 'symptoms'))} changed={changed.has('symptoms')} />
        <CardPart title={A.cause} lines={bulletLines(field(record, 'cause'))} changed={changed.has('cause')} />
        <CardPart title={A.treatments} lines={bulletLines(field(record, 'treatments'))} changed={changed.has('treatments')} />
      </div>
    </div>
  );
}
