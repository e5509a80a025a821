// One hourly guest (go-guest:cpus resizes it in place), the account's name through a lookup, and
// the guest read back by its id through another (an Output-form invoke).
package main

import (
	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		cpus := conf.GetInt("cpus")
		if cpus == 0 {
			cpus = 1
		}
		guest, err := svc.NewVirtualGuest(ctx, "web", &svc.VirtualGuestArgs{
			Domain:                       pulumi.String("go.example.com"),
			Datacenter:                   pulumi.String("dal10"),
			StartCpus:                    pulumi.Int(cpus),
			MaxMemory:                    pulumi.Int(1024),
			OperatingSystemReferenceCode: pulumi.String("UBUNTU_LATEST"),
			Tags:                         pulumi.StringArray{pulumi.String("go-guest")},
		})
		if err != nil {
			return err
		}
		account, err := svc.GetAccount(ctx, &svc.GetAccountArgs{})
		if err != nil {
			return err
		}
		found := svc.LookupVirtualGuestOutput(ctx, svc.LookupVirtualGuestOutputArgs{
			Id: guest.GuestId,
		})
		ctx.Export("company", pulumi.StringPtrFromPtr(account.CompanyName))
		ctx.Export("guestId", guest.GuestId)
		ctx.Export("address", guest.PrimaryIpAddress)
		ctx.Export("foundHostname", found.Hostname())
		return nil
	})
}
