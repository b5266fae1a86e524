import { referenceKind } from '../kinds/reference-kind.js';

/** 26 Collaborator: members of the organization; written as accountIds. */
export const collaborator = referenceKind({
  code: '26',
  name: 'Collaborator',
  kind: 'account',
  idKey: 'accountId',
  present: (id, refs) => {
    const account = refs.accounts.get(id);
    return { accountId: id, fullname: account?.fullname ?? '', avatar: account?.avatar ?? '', status: account?.status ?? 0 };
  },
});
