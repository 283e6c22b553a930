import { schemaResolver, useForm, type FormErrors, type UseFormInput, type UseFormReturnType } from '@mantine/form';
import { useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { errorBodySchema, type FieldErrors } from '@greenroom/contracts/errors';
import { isApiError } from './api-client';

/**
 * The forms pattern (docs/ARCHITECTURE.md, "Forms"): every form is a `@mantine/form` form validated by a zod schema
 * from `@greenroom/contracts` — the same rules the server applies — and saved through `useFormSubmit`, which puts
 * the server's field errors on their fields. Editor pages add `useUnsavedChangesGuard(form)`.
 */

/** A form whose values are the schema's input and whose submitted values are the schema's output (trimmed, defaulted). */
export type SchemaForm<S extends z.ZodType> = UseFormReturnType<z.input<S>, z.output<S>>;

export type SchemaFormOptions<S extends z.ZodType> = Omit<
  UseFormInput<z.input<S>, z.output<S>>,
  'validate' | 'transformValues' | 'mode'
> & {
  initialValues: z.input<S>;
};

/**
 * `useForm` validated by `schema`: errors show on their fields as the user types (after the first change) and on
 * submit; the submit handler receives `schema.parse(values)`.
 */
export function useSchemaForm<S extends z.ZodType<object, object>>(schema: S, options: SchemaFormOptions<S>): SchemaForm<S> {
  return useForm<z.input<S>, z.output<S>>({
    mode: 'controlled',
    validateInputOnChange: true,
    ...options,
    validate: schemaResolver(schema, { sync: true }),
    transformValues: (values) => schema.parse(values),
  });
}

/** The field errors of a refused request (a 4xx answer with `fields`: 400/422 invalid, 409 taken …), or null. */
export function serverFieldErrors(error: unknown): FieldErrors | null {
  if (!isApiError(error) || error.status < 400 || error.status >= 500) return null;
  const body = errorBodySchema.safeParse(error.body);
  const fields = body.success ? body.data.fields : undefined;
  return fields && Object.keys(fields).length > 0 ? fields : null;
}

function hasPath(values: unknown, path: string): boolean {
  let node = values;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/**
 * The server's field errors that belong to fields of this form, keyed by form path. `fieldMap` renames server paths
 * whose form field is named differently (`{ duration_seconds: 'amount' }`); errors of fields the form does not have
 * are left out (the caller shows the whole message instead).
 */
export function formFieldErrors(error: unknown, values: unknown, fieldMap: Record<string, string> = {}): FormErrors {
  const fields = serverFieldErrors(error);
  const errors: FormErrors = {};
  if (!fields) return errors;
  for (const [serverPath, message] of Object.entries(fields)) {
    const path = fieldMap[serverPath] ?? serverPath;
    if (hasPath(values, path)) errors[path] = message;
  }
  return errors;
}

export interface FormSubmitOptions<Output, Result> {
  /** After the save succeeded; the form is not dirty any more (its values are the new baseline). */
  onSuccess?: (result: Result, values: Output) => void;
  /** Server field path → form field path, for fields named differently in the form. */
  fieldMap?: Record<string, string>;
}

export interface FormSubmit {
  /** Give it to `<form onSubmit>`. */
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  /** The last failure not shown on a field (show it in an `ErrorAlert` above the buttons), or null. */
  error: unknown;
  /** Forget `error` (e.g. when a dialog closes). */
  reset: () => void;
}

/**
 * Validates, then saves the schema's output with `save` (usually a mutation's `mutateAsync`). A refusal naming fields
 * of the form shows on those fields; any other failure comes back as `error`. `form.submitting` is true meanwhile,
 * and a second submit while saving is ignored. Give the mutation `meta: { errorToast: false }`: the form shows it.
 */
export function useFormSubmit<Values, Output, Result>(
  form: UseFormReturnType<Values, Output>,
  save: (values: Output) => Promise<Result>,
  options: FormSubmitOptions<Output, Result> = {},
): FormSubmit {
  const [error, setError] = useState<unknown>(null);
  const saving = useRef(false);

  const onSubmit = form.onSubmit(
    async (values) => {
      if (saving.current) return;
      saving.current = true;
      setError(null);
      try {
        const result = await save(values);
        form.resetDirty();
        options.onSuccess?.(result, values);
      } catch (failure) {
        const onFields = formFieldErrors(failure, form.getValues(), options.fieldMap);
        const count = Object.keys(onFields).length;
        if (count > 0) form.setErrors(onFields);
        // Shown above the buttons unless every problem the server named is on a field.
        if (count === 0 || count < Object.keys(serverFieldErrors(failure) ?? {}).length) setError(failure);
      } finally {
        saving.current = false;
      }
    },
    // A rule about the whole form (a zod `refine` without a path) has no field to show on.
    (errors) => {
      const whole = errors[''];
      setError(typeof whole === 'string' ? new Error(whole) : null);
    },
  );

  return { onSubmit, error, reset: () => setError(null) };
}
