// libbzip2-wasm ships no types: its factory, and the one function the archives use.
declare module 'libbzip2-wasm' {
  interface Bzip2Module {
    /** `blockSize` 1–9 (×100 kB), `workFactor` 0–250 (libbzip2's); `output` is a view into the module's memory. */
    compressBZ2(
      input: Uint8Array,
      blockSize: number,
      workFactor: number,
    ): { error: number; errorMsg: string; output: Uint8Array };
  }
  /** Emscripten's module: `then` calls back once it is ready (it is a thenable that never settles an `await`). */
  const factory: () => { then(ready: (module: Bzip2Module) => void): unknown };
  export default factory;
}
