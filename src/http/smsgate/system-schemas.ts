// The shapes of SMSGate's system routes in /openapi.json: GET / and GET /health with a Basic
// credential, the device, the logs and the inbox, as SMSGate's app answers them.
import * as z from 'zod';

const Status = z.enum(['pass', 'warn', 'fail']);

export const SmsgateRootSchema = z
  .object({
    status: z.literal('ok'),
    model: z.string().nullable().describe("the phone's model as getprop tells it; null before it was read"),
  })
  .meta({ id: 'SmsgateRoot' });

export const SmsgateCheckSchema = z
  .object({
    status: Status,
    observedValue: z.number().describe('-1: the phone has not told this fact lately (the check never asks it)'),
    observedUnit: z.string(),
    description: z.string(),
  })
  .meta({ id: 'SmsgateHealthCheck' });

export const SmsgateHealthSchema = z
  .object({
    status: Status.describe('the worst of the checks'),
    version: z.string(),
    releaseId: z.number().int().describe('the version as a number: 0.5.2 is 502'),
    checks: z
      .record(z.string(), SmsgateCheckSchema)
      .describe(
        'messages:failed, battery:level, battery:charging, connection:status, connection:transport, ' +
          'connection:cellular',
      ),
  })
  .meta({ id: 'SmsgateHealth' });

export const SmsgateSimCardSchema = z
  .object({
    slotIndex: z.number().int().describe('0-based'),
    simNumber: z.number().int().describe('1-based, as simNumber of a message'),
    phoneNumber: z.string().nullable().describe('SMS_GATEWAY_PHONE_NUMBER, on the default slot'),
    carrierName: z.string().nullable(),
    iccid: z.string().nullable().describe('always null: Termux:API does not tell it'),
  })
  .meta({ id: 'SmsgateSimCard' });

export const SmsgateDeviceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    lastSeen: z.iso.datetime(),
    simCards: z.array(SmsgateSimCardSchema),
  })
  .meta({ id: 'SmsgateDevice' });

export const SmsgateLogEntrySchema = z
  .object({
    id: z.number().int(),
    priority: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
    module: z.string(),
    message: z.string(),
    context: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'SmsgateLogEntry' });

export const SmsgateInboxMessageSchema = z
  .object({
    id: z.string(),
    type: z.literal('SMS'),
    sender: z.string(),
    recipient: z.string().nullable(),
    simNumber: z.number().int().nullable(),
    contentPreview: z.string(),
    createdAt: z.iso.datetime(),
    attachments: z.array(z.unknown()).max(0).describe('always empty: SMS only'),
  })
  .meta({ id: 'SmsgateInboxMessage' });
