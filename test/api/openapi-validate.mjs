// Validates an OpenAPI document read from stdin against the OpenAPI 3 schema.
// A separate process because swagger-parser is ESM-only and the API tests run as CommonJS.
import SwaggerParser from '@apidevtools/swagger-parser';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
try {
  await SwaggerParser.validate(JSON.parse(input));
  process.stdout.write('valid\n');
} catch (error) {
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
