import type { ProductForm, TierForm } from './product-form.ts';

/**
 * What the product editor shows for each product type (DOMAIN.md: a course has items and their
 * durations, an event its date, time, venue and tickets). A field the type does not use still
 * shows while it holds a value, so switching type or opening an older product never hides
 * something that is saved.
 */
export interface TypeShape {
  /** The type's name in the type picker. */
  label: string;
  /** What the type's content items are called: the card's title and one item's name. */
  items: { title: string; one: string; kind: string; description: string };
  /** Items carry a duration (lessons, sessions). */
  durations: boolean;
  /** The event card: date, time, venue. */
  event: boolean;
  /** A tier's tickets per purchase. */
  tickets: boolean;
  /** A tier's limited number of places, and what they are called. */
  places?: { label: string; hint: string };
  /** A tier may bill again (a membership, a coaching plan). */
  recurring: boolean;
}

export const typeShapes: Record<string, TypeShape> = {
  digital: {
    label: 'Digital download', durations: false, event: false, tickets: false, recurring: false,
    items: { title: 'Files', one: 'file', kind: 'file', description: 'The files buyers download, and extras bought beside a tier.' },
  },
  course: {
    label: 'Course', durations: true, event: false, tickets: false, recurring: false,
    items: { title: 'Lessons', one: 'lesson', kind: 'lesson', description: 'The lessons in order, with how long each takes, and extras bought beside a tier.' },
  },
  event: {
    label: 'Event', durations: false, event: true, tickets: true, recurring: false,
    places: { label: 'Tickets available', hint: 'Empty: no limit' },
    items: { title: 'Sessions and add-ons', one: 'item', kind: 'session', description: 'Sessions of the programme, and extras bought beside a ticket.' },
  },
  service: {
    label: 'Service', durations: true, event: false, tickets: false, recurring: true,
    places: { label: 'Places available', hint: 'Empty: no limit' },
    items: { title: 'Sessions', one: 'session', kind: 'session', description: 'The sessions a buyer gets, with how long each takes, and extras bought beside a tier.' },
  },
  membership: {
    label: 'Membership', durations: false, event: false, tickets: false, recurring: true,
    items: { title: 'Member content', one: 'item', kind: 'file', description: 'What members get, and extras bought beside a plan.' },
  },
  physical: {
    label: 'Physical product', durations: false, event: false, tickets: false, recurring: false,
    places: { label: 'In stock', hint: 'Empty: not counted' },
    items: { title: 'Add-ons', one: 'add-on', kind: 'addon', description: 'Extras bought beside the product, such as gift wrapping.' },
  },
};

/** The shape of a type the dashboard does not edit specially (appointment, a newer type): everything shows. */
const everything: TypeShape = {
  label: 'Other', durations: true, event: true, tickets: true, recurring: true, places: { label: 'Places', hint: 'Empty: no limit' },
  items: { title: 'Content and add-ons', one: 'item', kind: 'file', description: 'What a tier includes, and extras bought beside it.' },
};

export const shapeOf = (type: string): TypeShape => typeShapes[type] ?? { ...everything, label: type };

/** The event card shows for an event, or for any product that has event details saved or typed. */
export const showsEvent = (f: ProductForm) => shapeOf(f.type).event || f.hadEvent || !!f.venue || !!f.dateTime;

/** Which of a tier's type-dependent inputs show (the tier's own values keep them showing). */
export function tierInputs(shape: TypeShape | undefined, t: TierForm) {
  if (!shape) return { tickets: false, places: { label: 'Places', hint: 'Empty: no limit' }, recurring: true };
  return {
    tickets: shape.tickets || (t.noOfTickets.trim() !== '' && t.noOfTickets.trim() !== '1'),
    places: shape.places ?? (t.slots.trim() ? { label: 'Places', hint: 'Empty: no limit' } : undefined),
    recurring: shape.recurring || t.periodic !== 'none',
  };
}
