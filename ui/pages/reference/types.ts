/**
 * The part of an OpenAPI 3.1 document the reference page reads.
 *
 * @module
 */

/** A JSON Schema, as zod-to-openapi writes them. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  description?: string;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
}

/** A parameter of an operation. */
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

/** What a body or answer carries, by media type. */
export type Content = Record<string, { schema?: Schema }>;

/** One answer of an operation. */
export interface ResponseObject {
  description: string;
  content?: Content;
  headers?: Record<string, { description?: string; schema?: Schema }>;
}

/** One method of one path. */
export interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Content; description?: string };
  responses: Record<string, ResponseObject>;
}

/** The document. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, { type: string; in?: string; name?: string }>;
  };
}
