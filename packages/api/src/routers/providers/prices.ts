import { z } from "zod";
import { setModelPriceInput } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { listModelPrices, modelPriceItem, setModelPrice } from "../../services/models/prices.ts";

/** The organization's price table: its own prices and the built-in ones, in US dollars per million tokens. */
export const prices = organizationResourceProcedure("organization.providers.manage", byOrganizationId)
  .output(z.array(modelPriceItem))
  .query(({ ctx }) => listModelPrices(ctx.db, ctx.organization.organizationId));

/** Sets the organization's price of one model (over the built-in one, if any). */
export const setPrice = organizationResourceProcedure("organization.providers.manage", byOrganizationId)
  .input(setModelPriceInput)
  .output(modelPriceItem)
  .mutation(({ ctx, input }) => setModelPrice(ctx.db, { ...input, organizationId: ctx.organization.organizationId }, ctx.audit));
