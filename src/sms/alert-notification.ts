// An alert notification as the gateway reads it, whoever sent it (Alertmanager's webhook,
// Grafana's webhook contact point: http/receiver-schemas.ts turns each payload into this):
// the status, the alerts with their labels and annotations, how many were left out of the
// payload, and what identifies the notification for idempotency (sms/alert-intake.ts).
export type AlertStatus = 'firing' | 'resolved';

export interface AlertItem {
  status: AlertStatus;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** The sender's fingerprint of the alert's labels. */
  fingerprint: string;
  /** RFC 3339, as the sender wrote it. */
  startsAt: string;
}

export interface AlertNotification {
  /** Who sent it: the tag `source` of every message it queues. */
  source: 'alertmanager' | 'grafana';
  status: AlertStatus;
  /** The sender's key of the alert group. */
  groupKey: string;
  alerts: AlertItem[];
  /** Alerts the sender left out (max_alerts): counted, not shown. */
  truncated: number;
}
