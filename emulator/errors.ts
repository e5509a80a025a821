/**
 * API faults as the real service sends them: a string fault code (a `Svc_Exception_*` class name,
 * or an XML-RPC spec code such as '-32601' sent as a string) and a message a person can act on.
 */
export class ApiFault extends Error {
  constructor(
    readonly faultCode: string,
    readonly faultString: string,
  ) {
    super(faultString);
    this.name = 'ApiFault';
  }
}

export const FaultCodes = {
  notWellFormed: '-32700',
  invalidCharacter: '-32702',
  specViolation: '-32600',
  methodNotFound: '-32601',
  invalidParams: '-32602',
  internal: '-32603',
  objectNotFound: 'Svc_Exception_ObjectNotFound',
  notAuthorized: 'Svc_Exception_NotAuthorized',
  invalidLegacyToken: 'Svc_Exception_InvalidLegacyToken',
  rateLimit: 'Svc_Exception_WebService_RateLimitExceeded',
  public: 'Svc_Exception_Public',
  invalidValue: 'Svc_Exception_InvalidValue',
  notReady: 'Svc_Exception_NotReady',
  notSupported: 'Svc_Exception_NotSupported',
  orderItemInvalid: 'Svc_Exception_Order_Item_Invalid',
  orderItemConflict: 'Svc_Exception_Order_Item_Conflict',
  orderMissingCategory: 'Svc_Exception_Order_MissingCategory',
  orderInvalidLocation: 'Svc_Exception_Order_InvalidLocation',
} as const;

export const notWellFormed = (detail: string) =>
  new ApiFault(FaultCodes.notWellFormed, `Parse error: not well formed: ${detail}`);

export const invalidParams = (detail: string) =>
  new ApiFault(FaultCodes.invalidParams, `Invalid method parameters: ${detail}`);

export const objectNotFound = (id: unknown) =>
  new ApiFault(FaultCodes.objectNotFound, `Unable to find object with id of '${String(id)}'.`);

export const publicFault = (message: string) => new ApiFault(FaultCodes.public, message);

export const invalidValue = (message: string) => new ApiFault(FaultCodes.invalidValue, message);

/** The object is busy or not yet available for this (a change pending, provisioning). */
export const notReady = (message: string) => new ApiFault(FaultCodes.notReady, message);

/** What is asked is not available to this object (a speed above its port's). */
export const notSupported = (message: string) => new ApiFault(FaultCodes.notSupported, message);

export const propertyNotValid = (property: string, typeName: string) =>
  publicFault(`Property '${property}' not valid for '${typeName}'.`);
