import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { ZoomIn, ZoomOut } from 'lucide-react';
import { AVATAR, CROP } from '../../../common/profile';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';

/**
 * Crop Profile Picture (docs/PRODUCT.md section 2): a round crop, aspect 1:1, zoom 1 to 3 in steps of
 * 0.1, Cancel and 'Apply crop'. It sits above Account Settings, so Escape closes it first.
 */
export function CropDialog({
  image,
  busy,
  onCancel,
  onApply,
}: {
  image: string | null;
  busy?: boolean;
  onCancel(): void;
  onApply(area: Area): void;
}) {
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState<number>(AVATAR.cropZoomMin);
  const [area, setArea] = useState<Area | null>(null);

  return (
    <Dialog
      open={image !== null}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title={CROP.title}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {CROP.cancel}
          </Button>
          <Button onClick={() => area && onApply(area)} disabled={!area || busy}>
            {CROP.apply}
          </Button>
        </>
      }
    >
      <div className="relative h-72 w-full overflow-hidden rounded-xl bg-slate-900 sm:h-80" data-testid="crop-area">
        {image && (
          <Cropper
            image={image}
            crop={crop}
            zoom={zoom}
            minZoom={AVATAR.cropZoomMin}
            maxZoom={AVATAR.cropZoomMax}
            aspect={AVATAR.cropAspect}
            cropShape="round"
            showGrid={false}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onCropComplete={(_area, pixels) => setArea(pixels)}
          />
        )}
      </div>
      <div className="mt-4 flex items-center gap-3">
        <ZoomOut className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
        <input
          type="range"
          aria-label={CROP.zoom}
          min={AVATAR.cropZoomMin}
          max={AVATAR.cropZoomMax}
          step={AVATAR.cropZoomStep}
          value={zoom}
          onChange={(e) => setZoom(Number(e.target.value))}
          className="h-2 w-full cursor-pointer accent-brand-700"
        />
        <ZoomIn className="h-4 w-4 shrink-0 text-slate-500" aria-hidden />
        <span className="w-10 text-right text-sm tabular-nums text-slate-600" aria-hidden>
          {zoom.toFixed(1)}×
        </span>
      </div>
    </Dialog>
  );
}
