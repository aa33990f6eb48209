import { parentPort, workerData } from 'node:worker_threads';
import type { OutputQuantization, PixelContract } from '../../../../../common/schemas/models.js';
import { loadLiteRtRuntime } from '../runtime/litert.js';
import { prepareInput, topK, type InputSpec } from './prepare.js';

/**
 * The evaluation thread: LiteRT.js runs the model file itself (its WebAssembly build, the
 * runtime the browser demo uses), one photo at a time, on this thread, so the server's
 * event loop never waits for inference. Each message is one photo's bytes; the reply is its
 * best outputs or the reason it could not be scored.
 */
interface Setup {
  model: Uint8Array;
  contract: PixelContract;
  input: InputSpec;
  /** 8-bit scores' scale and zero point: each is read as scale × (q − zeroPoint) before anything else. */
  output?: OutputQuantization;
  topK: number;
  wasmMemoryMb: number;
}
export interface ScoreRequest {
  id: number;
  photo: Uint8Array;
}
export type ScoreReply =
  { id: number; top: Array<[number, number]> } | { id: number; error: string } | { ready: true } | { failed: string };

const setup = workerData as Setup;

/**
 * LiteRT's WebAssembly memory lies outside this thread's resourceLimits. Emscripten grows it
 * only through Memory.grow from JavaScript, so a grow past the cap is refused here: the
 * runtime's allocation fails and the model is reported as not loadable (or the photo as not
 * scored) instead of taking the machine's memory.
 */
const grow = WebAssembly.Memory.prototype.grow;
const capBytes = setup.wasmMemoryMb * 1024 * 1024;
WebAssembly.Memory.prototype.grow = function capped(this: WebAssembly.Memory, delta: number): number {
  if (this.buffer.byteLength + delta * 65536 > capBytes)
    throw new RangeError(`the model needs more than ${setup.wasmMemoryMb} MB of memory`);
  return grow.call(this, delta);
};

async function start() {
  const lrt = await loadLiteRtRuntime();
  const model = await lrt.loadAndCompile(setup.model, { accelerator: 'wasm' });
  const shape = [1, setup.input.height, setup.input.width, 3];
  parentPort!.on('message', (msg: ScoreRequest) => {
    void (async () => {
      let input;
      try {
        input = await prepareInput(Buffer.from(msg.photo.buffer, msg.photo.byteOffset, msg.photo.byteLength), setup.contract, setup.input);
      } catch (err) {
        parentPort!.postMessage({ id: msg.id, error: `The photo could not be read: ${(err as Error).message}` } satisfies ScoreReply);
        return;
      }
      let tensor: InstanceType<typeof lrt.Tensor> | null = null;
      try {
        tensor = new lrt.Tensor(input, shape);
        const outputs = await model.run([tensor]);
        const raw = outputs[0]!.toTypedArray() as ArrayLike<number>;
        const q = setup.output;
        const scores = q ? Array.from(raw, (v) => q.scale * (v - q.zeroPoint)) : raw;
        parentPort!.postMessage({ id: msg.id, top: topK(scores, setup.topK) } satisfies ScoreReply);
        for (const o of outputs) o.delete();
      } catch (err) {
        parentPort!.postMessage({
          id: msg.id,
          error: `The model could not score the photo: ${(err as Error).message}`,
        } satisfies ScoreReply);
      } finally {
        tensor?.delete();
      }
    })();
  });
  parentPort!.postMessage({ ready: true } satisfies ScoreReply);
}

start().catch((err: unknown) => parentPort!.postMessage({ failed: (err as Error).message ?? String(err) } satisfies ScoreReply));
