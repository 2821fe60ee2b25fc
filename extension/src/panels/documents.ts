// Reads MindScope documents from disk and refuses what is not one.
import * as fs from 'node:fs/promises';
import { isExportReport, type ExportReport } from '../contracts/exportReport';
import { isGraphDocument, type GraphDocument } from '../contracts/graphDocument';
import { isProfileDocument, type ProfileDocument } from '../contracts/profileDocument';

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
}

export async function readGraphDocument(file: string): Promise<GraphDocument> {
  const value = await readJson(file);
  if (!isGraphDocument(value)) throw new Error(`${file} is not a MindScope graph document`);
  return value;
}

export async function readProfileDocument(file: string): Promise<ProfileDocument> {
  const value = await readJson(file);
  if (!isProfileDocument(value)) throw new Error(`${file} is not a MindScope profile document`);
  return value;
}

export async function readExportReport(file: string): Promise<ExportReport> {
  const value = await readJson(file);
  if (!isExportReport(value)) throw new Error(`${file} is not a MindScope export report`);
  return value;
}
