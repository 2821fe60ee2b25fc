// Registers the `mindscope` debug type: debug a Cell's forward call with PyNative forced.
import * as vscode from 'vscode';
import { DEBUG_TYPE } from './config';
import { PyNativeDebugProvider } from './provider';

export function registerDebugging(context: vscode.ExtensionContext): void {
  const debug = new PyNativeDebugProvider(context.extensionPath);
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, debug),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, debug),
  );
}
