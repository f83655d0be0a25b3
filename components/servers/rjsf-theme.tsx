"use client";

import {
  ADDITIONAL_PROPERTY_FLAG,
  type FieldTemplateProps,
  getTemplate,
  getUiOptions,
  TranslatableString,
  type ArrayFieldItemTemplateProps,
  type IconButtonProps,
  type TemplatesType,
  type WrapIfAdditionalTemplateProps,
} from "@rjsf/utils";
import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { controlClasses, REQUIRED_MARK } from "@/components/ui/field";

/** A text button standing in for rjsf's Bootstrap glyph buttons, which render empty without Bootstrap. */
function TextButton({ text, label, danger, icon, iconType, registry, uiSchema, className, ...rest }: IconButtonProps & { text: string; label: string; danger?: boolean }) {
  void icon;
  void iconType;
  void registry;
  void uiSchema;
  void className;
  return (
    <button type="button" aria-label={label} title={label} className={buttonClasses("ghost", "sm", danger ? "text-red-600 dark:text-red-400" : undefined)} {...rest}>
      {text}
    </button>
  );
}

const ButtonTemplates: Partial<TemplatesType["ButtonTemplates"]> = {
  AddButton: (props) => (
    <div>
      <TextButton {...props} text="+ Add item" label={props.registry.translateString(TranslatableString.AddItemButton)} />
    </div>
  ),
  RemoveButton: (props) => <TextButton {...props} text="Remove" label={props.registry.translateString(TranslatableString.RemoveButton)} danger />,
  MoveUpButton: (props) => <TextButton {...props} text="↑" label={props.registry.translateString(TranslatableString.MoveUpButton)} />,
  MoveDownButton: (props) => <TextButton {...props} text="↓" label={props.registry.translateString(TranslatableString.MoveDownButton)} />,
  CopyButton: (props) => <TextButton {...props} text="Copy" label={props.registry.translateString(TranslatableString.CopyButton)} />,
  ClearButton: (props) => <TextButton {...props} text="×" label={props.registry.translateString(TranslatableString.ClearButton)} />,
  SubmitButton: () => null,
};

function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, hasToolbar, registry, uiSchema } = props;
  const Buttons = getTemplate("ArrayFieldItemButtonsTemplate", registry, getUiOptions(uiSchema));
  return (
    <div className="flex items-start gap-2 rounded-md border border-dashed p-2">
      <div className="min-w-0 flex-1">{children}</div>
      {hasToolbar && (
        <div className="flex shrink-0 gap-0.5">
          <Buttons {...buttonsProps} />
        </div>
      )}
    </div>
  );
}

function WrapIfAdditionalTemplate(props: WrapIfAdditionalTemplateProps) {
  const { id, classNames, style, disabled, label, onKeyRenameBlur, onRemoveProperty, readonly, schema, hideError, rawErrors, children, uiSchema, registry } = props;
  const { RemoveButton } = registry.templates.ButtonTemplates;
  const className = ["form-group", classNames, !hideError && rawErrors?.length ? "has-error" : ""].filter(Boolean).join(" ");
  if (!(ADDITIONAL_PROPERTY_FLAG in schema)) {
    return (
      <div className={className} style={style}>
        {children}
      </div>
    );
  }
  return (
    <div className={className} style={style}>
      <div className="flex items-end gap-2">
        <div className="flex w-2/5 flex-col gap-1">
          <label htmlFor={`${id}-key`} className="control-label">
            {registry.translateString(TranslatableString.KeyLabel, [label])}
          </label>
          <input id={`${id}-key`} type="text" className={controlClasses} defaultValue={label} onBlur={onKeyRenameBlur} key={label} />
        </div>
        <div className="min-w-0 flex-1">{children}</div>
        <RemoveButton id={`${id}-remove`} disabled={disabled || readonly} onClick={onRemoveProperty} uiSchema={uiSchema} registry={registry} />
      </div>
    </div>
  );
}

/** rjsf's FieldTemplate, with the required mark drawn by CSS so labels read exactly as the property name. */
function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, registry, uiSchema } = props;
  const uiOptions = getUiOptions(uiSchema);
  const Wrap = getTemplate("WrapIfAdditionalTemplate", registry, uiOptions);
  if (hidden) return <div className="hidden">{children}</div>;
  return (
    <Wrap {...props}>
      {displayLabel && label && uiOptions.widget !== "checkbox" && (
        <label htmlFor={id} className={cn("control-label", required && REQUIRED_MARK)}>
          {label}
        </label>
      )}
      {displayLabel && description ? description : null}
      {children}
      {errors}
      {help}
    </Wrap>
  );
}

/** The console's look for @rjsf/core: the default markup (styled by `.sb-form` in globals.css) plus these. */
export const rjsfTemplates = { ButtonTemplates, ArrayFieldItemTemplate, WrapIfAdditionalTemplate, FieldTemplate };
