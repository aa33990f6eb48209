// The path of TypeScript 6's module, for eslint.config.js to hand to typescript-eslint.
module.exports = require.resolve('typescript');
