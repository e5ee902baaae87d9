import type { TestProject } from 'vitest/node';
import { createTemplateDatabase } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const template = await createTemplateDatabase();
  project.provide('dbTemplate', template.name);
  return () => template.drop();
}
