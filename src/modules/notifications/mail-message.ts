/** What a notification's mail says. */
export interface NotificationMail {
  subject: string;
  text: string;
}

/** Told at the end of every notification mail: how to stop them. */
const FOOTER = 'You receive this because of a notification for you. To stop these mails, turn mail off in your notification settings (PATCH /v3/notifications/settings with {"mail": false}).';

/**
 * The mail of a notification, in plain text: its title as the subject (one line: a title's line
 * breaks would start headers), its body, and where it leads as an absolute link (`PUBLIC_URL` before
 * the notification's path).
 * @example notificationMail({ title: 'Expenses: approve (Managers)', body: 'Laptop', link: '/v3/app/workflow/instance/r1?workId=w1' }, 'https://t.example.com')
 * // → { subject: 'Expenses: approve (Managers)', text: 'Laptop\n\nhttps://t.example.com/v3/app/workflow/instance/r1?workId=w1\n\n-- \nYou receive this …' }
 */
export function notificationMail(note: { title: string; body: string; link: string }, publicUrl: string): NotificationMail {
  const subject = note.title.replace(/[\r\n]+/g, ' ').trim() || 'Notification';
  const link = note.link === '' ? '' : /^https?:\/\//i.test(note.link) ? note.link : `${publicUrl}${note.link.startsWith('/') ? '' : '/'}${note.link}`;
  const text = [note.body, link, `-- \n${FOOTER}`].filter((part) => part !== '').join('\n\n');
  return { subject, text: `${text}\n` };
}
