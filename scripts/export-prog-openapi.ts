import { openApiDocuments } from './openapi-documents';

/** Prints the OpenAPI document of /prog, exactly as the server serves it at /prog/openapi.json, for the build of the /api-documentation page. */
openApiDocuments()
  .then(({ prog }) => process.stdout.write(`${JSON.stringify(prog, null, 2)}\n`))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
