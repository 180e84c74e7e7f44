import type { Plugin } from 'vite';

/**
 * OpenCV's JavaScript bindings (`opencv-wasm`, Emscripten's embind) build four kinds of wrapper
 * from strings with `new Function`, which the page's policy (no 'unsafe-eval') forbids in the
 * browser's document worker. Each is replaced here by the closure it stands for (what Emscripten
 * itself emits with DYNAMIC_EXECUTION=0), and the module becomes a factory that takes Emscripten's
 * Module settings (the wasm is then compiled from the app's own file, not read beside the script
 * with a synchronous request). A pattern that is no longer found fails the build: the package is
 * pinned, and a new version must be looked at again.
 */

const replacements: [RegExp, string][] = [
  [
    /return new Function\("body", "return function " \+ name \+ [^\n]*\(body\)/,
    `var named = function() { return body.apply(this, arguments) };
    Object.defineProperty(named, "name", { value: name });
    return named`,
  ],
  [
    /return new Function\("dynCall", "rawFunction", body\)\(dynCall, rawFunction\)/,
    `return function() {
      var callArgs = [rawFunction];
      for (var k = 0; k < arguments.length; k++) callArgs.push(arguments[k]);
      return dynCall.apply(null, callArgs)
    }`,
  ],
  [
    /var returns = argTypes\[0\]\.name !== "void";\s*var argsList = ""[\s\S]*?var invokerFunction = new_\(Function, args1\)\.apply\(null, args2\);\s*return invokerFunction/,
    `var returns = argTypes[0].name !== "void";
    var expected = argCount - 2;
    return function() {
      if (arguments.length !== expected) throwBindingError("function " + humanName + " called with " + arguments.length + " arguments, expected " + expected + " args!");
      var destructors = needsDestructorStack ? [] : null;
      var callArgs = [cppTargetFunc];
      var thisWired;
      if (isClassMethodFunc) { thisWired = argTypes[1].toWireType(destructors, this); callArgs.push(thisWired) }
      var wired = [];
      for (var k = 0; k < expected; ++k) { wired.push(argTypes[k + 2].toWireType(destructors, arguments[k])); callArgs.push(wired[k]) }
      var rv = cppInvokerFunc.apply(null, callArgs);
      if (needsDestructorStack) runDestructors(destructors);
      else for (var k = isClassMethodFunc ? 1 : 2; k < argTypes.length; ++k) {
        var dtor = argTypes[k].destructorFunction;
        if (dtor !== null) dtor(k === 1 ? thisWired : wired[k - 2])
      }
      if (returns) return argTypes[0].fromWireType(rv)
    }`,
  ],
  [
    /var invokerFunction = new_\(Function, params\)\.apply\(null, args\);/,
    `var invokerFunction = function(handle, name, destructors, argsPtr) {
      var offset = 0, values = [];
      for (var k = 0; k < argCount - 1; ++k) { values.push(types[k + 1].readValueFromPointer(argsPtr + offset)); offset += types[k + 1].argPackAdvance }
      var rv = handle[name].apply(handle, values);
      for (var k = 0; k < argCount - 1; ++k) if (types[k + 1].deleteObject) types[k + 1].deleteObject(values[k]);
      if (!retType.isVoid) return retType.toWireType(destructors, rv)
    };`,
  ],
  // The module's settings come from the caller.
  [/^let Module = \{\};/m, ''],
];

/** The glue without string evaluation, as an ES module: `export default (settings) => cv`. */
export function openCvWithoutEval(code: string): string {
  let patched = code;
  for (const [pattern, replacement] of replacements) {
    if (!pattern.test(patched)) throw new Error(`opencv-wasm's glue has changed: ${pattern} not found`);
    patched = patched.replace(pattern, () => replacement);
  }
  if (/new Function|new_\(Function/.test(patched)) throw new Error('opencv-wasm still evaluates strings');
  // Its UMD wrapper takes the CommonJS branch and calls the factory with `Module`.
  return `export default function openCv(Module) {
  const module = { exports: {} };
  const exports = module.exports;
  const define = undefined;
  ${patched}
  return module.exports;
}
`;
}

/** Vite: `opencv-wasm/opencv.js` as that factory. */
export function openCvWithoutEvalPlugin(): Plugin {
  return {
    name: 'opencv-without-eval',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]opencv-wasm[\\/]opencv\.js$/.test(id.split('?')[0]!)) return null;
      return { code: openCvWithoutEval(code), map: null };
    },
  };
}
