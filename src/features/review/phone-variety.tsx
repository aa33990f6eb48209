import { CalendarDays, Leaf, MapPin, Ruler, Sprout, Sun, Tractor, Wheat, type LucideIcon } from 'lucide-react';
import { APP_PREVIEW as A } from '../../../common/review-screen-texts';
import { field, listField, Part, type AppRecord } from './preview-parts';

/** The sections of the app's variety screen, and the API fields each shows. */
export const VARIETY_SECTIONS = {
  identity: ['varietyName', 'releaseName', 'breedingCode', 'breederOrigin', 'yearRelease'],
  averageYield: ['averageYield'],
  maxYield: ['maxYield'],
  maturityDays: ['maturityDays'],
  plantHeight: ['plantHeight'],
  tillers: ['tillers'],
  location: ['location'],
  environment: ['environment'],
  season: ['season'],
  plantingMethod: ['plantingMethod'],
} as const;

// The app's card colours (res/values/colors.xml), its lighter value colours darkened to AA contrast.
const TONES = {
  green: 'bg-[#E9F4E8] text-[#166534]',
  blue: 'bg-[#EFF7FE] text-[#1D4ED8]',
  orange: 'bg-[#FFF3E0] text-[#9A3412]',
  purple: 'bg-[#FAF4FE] text-[#7E22CE]',
  navy: 'bg-[#EFF3FF] text-[#4E46E8]',
} as const;
type Tone = keyof typeof TONES;

/** A number card ("Datus ng Ani", "Impormasyon sa Paglaki"): the value, its unit and two caption lines. */
function StatCard({
  tone,
  icon: Icon,
  value,
  words,
  big,
  changed,
}: {
  tone: Tone;
  icon: LucideIcon;
  value: string;
  words: readonly string[];
  big?: boolean;
  changed: boolean;
}) {
  const [unit, line1, line2] = words;
  return (
    <Part changed={changed}>
      <div className={`flex h-full flex-col items-center rounded-[15px] p-2.5 shadow-sm ${TONES[tone]}`}>
        <span className="flex items-center gap-1">
          <Icon className={big ? 'h-7 w-7' : 'h-5 w-5'} aria-hidden />
          <span className={big ? 'text-[25px] font-semibold' : 'text-xl font-semibold'}>{value}</span>
        </span>
        <span className="text-[13px] font-medium">{unit}</span>
        <span className="text-center text-[10px] leading-tight text-[#515151]">{line1}</span>
        <span className="text-center text-[10px] leading-tight text-[#515151]">{line2}</span>
      </div>
    </Part>
  );
}

function PlaceRow({
  tone,
  icon: Icon,
  label,
  value,
  changed,
}: {
  tone: Tone;
  icon: LucideIcon;
  label: string;
  value: string;
  changed: boolean;
}) {
  return (
    <Part changed={changed}>
      <p className={`flex items-start gap-2 rounded-[10px] px-2.5 py-2 text-[13px] ${TONES[tone]}`}>
        <Icon className="h-5 w-5 shrink-0" aria-hidden />
        <span className="min-w-0 self-center break-words">
          <span className="text-[#515151]">{label}</span> <span className="font-medium">{value}</span>
        </span>
      </p>
    </Part>
  );
}

/**
 * The app's RiceVarietyInformation screen (activity_rice_variety_information.xml): the name card
 * with release name, breeding code, breeder origin and year; "Datus ng Ani" (average and maximum
 * yield); "Impormasyon sa Paglaki" (days to harvest, height, tillers); then where and when to plant.
 */
export function VarietyScreen({ record, changed }: { record: AppRecord; changed: Set<string> }) {
  const text = (key: string) => field(record, key) ?? '';
  const list = (key: string) => listField(record, key).join(', ');
  return (
    <div className="px-[15px] pb-6 pt-2.5">
      <Part changed={changed.has('identity')}>
        <div className="space-y-1 rounded-[15px] bg-[#C6F9D8] p-[15px] text-[#176434] shadow-sm">
          <p className="text-[17px] font-bold">{text('varietyName')}</p>
          <p className="flex flex-wrap gap-x-1.5 text-sm font-medium">
            <span>{text('releaseName')}</span>
            <span>{text('breedingCode')}</span>
          </p>
          <p className="flex flex-wrap gap-2 text-xs font-medium text-white">
            <span className="rounded-full bg-[#15803D] px-2 py-1">{text('breederOrigin')}</span>
            <span className="rounded-full bg-[#2563EB] px-2 py-1">{text('yearRelease')}</span>
          </p>
        </div>
      </Part>
      <h4 className="py-[15px] text-sm font-semibold text-black">{A.yieldData}</h4>
      <div className="grid grid-cols-2 gap-3">
        <StatCard tone="green" icon={Wheat} big value={text('averageYield')} words={A.averageYield} changed={changed.has('averageYield')} />
        <StatCard tone="blue" icon={Wheat} big value={text('maxYield')} words={A.maxYield} changed={changed.has('maxYield')} />
      </div>
      <h4 className="py-[15px] text-sm font-semibold text-black">{A.growth}</h4>
      <div className="grid grid-cols-3 gap-2">
        <StatCard
          tone="orange"
          icon={CalendarDays}
          value={text('maturityDays')}
          words={A.maturityDays}
          changed={changed.has('maturityDays')}
        />
        <StatCard tone="purple" icon={Ruler} value={text('plantHeight')} words={A.plantHeight} changed={changed.has('plantHeight')} />
        <StatCard tone="navy" icon={Sprout} value={text('tillers')} words={A.tillers} changed={changed.has('tillers')} />
      </div>
      <div className="mt-[15px] space-y-2 rounded-[15px] bg-white p-3 shadow-sm">
        <h4 className="text-sm font-semibold text-black">{A.recommended}</h4>
        <PlaceRow tone="green" icon={MapPin} label={A.location} value={text('location')} changed={changed.has('location')} />
        <PlaceRow tone="blue" icon={Leaf} label={A.environment} value={list('environment')} changed={changed.has('environment')} />
        <PlaceRow tone="orange" icon={Sun} label={A.season} value={list('season')} changed={changed.has('season')} />
        <PlaceRow
          tone="purple"
          icon={Tractor}
          label={A.plantingMethod}
          value={text('plantingMethod')}
          changed={changed.has('plantingMethod')}
        />
      </div>
    </div>
  );
}
