/** The texts of spec section 8 for groups, policies and requests, word for word (the spec's spelling kept). */

export const GROUP_NOT_RETRIEVED = 'Record Group could not be retrieved.';
export const POLICY_NOT_RETRIEVED = 'Access Policy could not be retrieved.';
export const POLICY_NOT_CREATED = 'Access Policy could not be created at this time.';
export const GROUP_DELETE_FAILED = 'Group delete failed.';
export const POLICY_DELETE_FAILED = 'Policy delete failed.';
export const NO_PERMISSION = "You don't have permission to do this!";
export const GROUP_SAVED = 'Record Group was created/edited successfully!';
export const POLICY_SAVED = 'Access Policy was created/edited successfully!';
export const GROUP_DELETED = 'Group was deleted.';
export const POLICY_DELETED = 'Your policy was deleted.';
export const NO_PROJECTS = 'No existing projects.';

export const REQUEST_SUBMITTED = 'Your request was submitted. You will be notified once it has been approved by the data administator.';
export const REQUEST_FAILED = 'Request failed!';
export const REQUEST_CLOSED = 'Your request was closed.';
export const REQUEST_CLOSE_FAILED = 'Request close failed.';
export const REQUEST_APPROVED = 'You have approved the request!';
export const APPROVAL_FAILED = 'Approval failed.';
export const REQUEST_DENIED = 'You have denied the request.';
export const UPDATE_FAILED = 'Update failed.';
export const MESSAGE_FAILED = 'Message sending failed. Please try again.';
export const CONFIRM_APPROVE = 'Are you sure you want to approve this request? This will allow requestors to download the data if stored on the product.';
export const CONFIRM_CLOSE = 'Are you sure you want to close this request? You cannot re-open a closed request.';
export const OPENING_REQUEST = 'Opening new request ...';
export const LOGIN_TO_REQUEST_RECORD = 'Please login to request a record!';
export const NO_INBOUND = 'You have no inbound data requests pending.';
export const NONE_STATED = '< None stated >';
export const GENERAL_ERROR = 'An error occured, please try again.';
